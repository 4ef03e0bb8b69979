import Wayfinder

/// The fields of a table a script hands a binding (`map:from`'s options, `wf.app`'s settings, an
/// open's action): the one list of their names, each with the Lua type its value must have. The
/// binding reads the table by these names, and exports the list (its module's `fields()`) to the
/// Lua wrapper, which checks a script's table against it (lua/wayfinder/fields.lua) so that a
/// mistake is raised at the script's own line; the values' meaning (which modes there are, which
/// URLs are valid) is checked here and refused as `nil, reason`.
protocol LuaTableFields: CaseIterable, RawRepresentable where RawValue == String {
    /// The Lua type the value must have (`type(value)`), or nil for any value.
    var luaType: String? { get }
    /// The fields a script may give; the rest are the host's own.
    static var forScripts: [Self] { get }
}

extension LuaTableFields {
    static var forScripts: [Self] { Array(allCases) }

    /// The list as the Lua side reads it: `{ { name = ..., type = ... }, ... }`, in this order
    /// (messages list the names so), `type` "any" for any value.
    static var exported: Value {
        .array(forScripts.map { field in ["name": .string(field.rawValue), "type": .string(field.luaType ?? "any")] })
    }
}

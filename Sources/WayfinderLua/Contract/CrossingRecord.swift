import Wayfinder

/// A record that crosses between Lua and Swift (a route's options and description, an open's
/// action, what `persist` answers, `make`'s fields, the state a migration sees, `wf.app`'s
/// settings): the one list of its field names, each with the Lua type its value must have where
/// a script writes it. The Swift side reads and writes the record by these names; the Lua side
/// is handed the list (its module's `fields()`) and takes every name from it, so no name is
/// spelled on both sides. A table a script hands over is checked against the list by
/// lua/wayfinder/fields.lua, so that a mistake is raised at the script's own line; the values'
/// meaning (which modes there are, which URLs are valid) is checked here and refused as
/// `nil, reason`.
package protocol CrossingRecord: CaseIterable, RawRepresentable where RawValue == String {
    /// The Lua type the value must have (`type(value)`), or nil for any value.
    var luaType: String? { get }
    /// The fields a script may give; the rest are the host's own.
    static var forScripts: [Self] { get }
}

extension CrossingRecord {
    package var luaType: String? { nil }
    package static var forScripts: [Self] { Array(allCases) }

    /// The list as the Lua side reads it (`ExportedFields`), fields in this order (messages list
    /// the names so). `name` is the key in the record; `symbol` the Swift case's name
    /// (`symbol(of:)`), by which Lua code asks for the key (`fields.keys`); `type` is "any" for
    /// any value; `host` marks a field only the host writes, which a script's table may not hold.
    package static var exported: Value {
        let type = ObjectIdentifier(Self.self)
        if let made = exportedRecords.withLock({ $0[type] }) { return made }
        let scripts = Set(forScripts.map(\.rawValue))
        let list = ExportedFields.list(allCases.map { field in
            ExportedFields.Field(name: field.rawValue, symbol: symbol(of: field.rawValue), type: field.luaType ?? "any",
                                 host: !scripts.contains(field.rawValue))
        })
        exportedRecords.withLock { $0[type] = list }
        return list
    }

    /// The name of the case whose key is `key`, by the rule every record keeps (a test holds
    /// them to it): the key in camel case, `param_names` for `paramNames`. Spelled from the key
    /// rather than read by reflection, which costs a launch a scan of every conformance in the
    /// process.
    package static func symbol(of key: String) -> String {
        let words = key.split(separator: "_")
        return (words.first.map(String.init) ?? "") + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// The names in order, as the messages and the LuaLS definitions list them.
    package static var names: [String] { allCases.map(\.rawValue) }
}

/// How a list of fields crosses to Lua (lua/wayfinder/fields.lua reads it): flat, four places a
/// field, its name, symbol, type and whether only the host writes it. One table for a whole list
/// rather than one a field: every launch hands every list over.
package enum ExportedFields {
    /// One field of a list.
    package struct Field {
        let name: String
        let symbol: String
        var type = "any"
        var host = false
    }

    package static func list(_ fields: [Field]) -> Value {
        .array(fields.flatMap { [.string($0.name), .string($0.symbol), .string($0.type), .bool($0.host)] })
    }

    /// A list of names alone, each with the symbol Lua asks for it by (the modes, the options'
    /// keys in a route's description).
    package static func names(_ names: [(name: String, symbol: String)]) -> Value {
        list(names.map { Field(name: $0.name, symbol: $0.symbol) })
    }
}

/// Each record's list, made once in a process: every launch hands the lists to its Lua state.
private let exportedRecords = Locked<[ObjectIdentifier: Value]>([:])

extension StateDocument.Member: CrossingRecord {}
extension StateDocument.RootField: CrossingRecord {}
extension StateDocument.RootKind: CrossingRecord {}
extension StateDocument.EntryField: CrossingRecord {}
extension StateDocument.ModelField: CrossingRecord {}
extension StateDocument.PendingField: CrossingRecord {}
extension StateDocument.ContextField: CrossingRecord {}

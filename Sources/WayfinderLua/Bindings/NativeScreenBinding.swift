import OrderedCollections
import Wayfinder

/// `wayfinder.native.screens`: the host's native screens (``NativeScreen``) lent to Lua.
/// `lua/wayfinder/native_screen.lua` wraps them in `wf.native`, whose classes hold each screen's
/// userdata and ask it for its title and its saved state. A name the host has no factory for,
/// and a factory's error, answer `nil, reason`, which the Lua side raises at the script's line
/// (`wf.native`) or as the open's failure (`make`).
enum NativeScreenBinding {
    static let functions: [(String, LuaBinding)] = [
        ("check", check), ("make", make), ("title", title), ("saved", saved), ("fields", fields),
    ]

    /// fields() -> { name, symbol, type, host, ... }: the fields of the table `make` takes
    /// (`NativeScreenField`).
    static let fields: LuaBinding = { L in
        LuaCall.run(L) { _ in [NativeScreenField.exported] }
    }

    /// check(name) -> true | nil, reason: whether the host makes screens of this name.
    static let check: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            _ = try factory(try call.string(1, name: "name"), of: host)
            return [.bool(true)]
        }
    }

    /// make(fields) -> screen userdata | nil, reason: the factory's screen for one open. A key
    /// that is not a `NativeScreenField` is an error naming it, at the caller's line.
    static let make: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            guard call.type(1) == .table else { throw call.typeError(1, name: "fields", expected: "table") }
            var fields: [NativeScreenField: Value] = [:]
            var context: [String: Value] = [:]
            try call.forEachField(ofTableAt: 1) { field, key, index throws(ScriptError) in
                switch NativeScreenField(rawValue: key) {
                case .context?:
                    let chain = try field.object(index, as: ContextChain.self, name: "context")
                    for key in chain.keys {
                        if let found = try? chain.get(key) { context[key] = found }
                    }
                case let name?:
                    // Values that are not plain data (an action's query may hold objects) are
                    // handed over by reference.
                    do throws(ScriptError) {
                        fields[name] = try call.state.valueHoldingTables(at: Int32(index), in: call.thread)
                    } catch {
                        throw field.argumentError(1, name: key, error.message)
                    }
                case nil:
                    throw field.argumentError(1, name: nil, "unknown field '\(key)' (known: \(NativeScreenField.names.joined(separator: ", ")))")
                }
            }
            func map(_ field: NativeScreenField) -> OrderedDictionary<String, Value> {
                if case .map(let pairs)? = fields[field] { return pairs }
                return [:]
            }
            let name = fields[.name]?.stringValue ?? ""
            let factory = try factory(name, of: host)
            let state = fields[.state] ?? .null
            let request = NativeScreenRequest(
                name: name, url: fields[.url]?.stringValue ?? "", pattern: fields[.pattern]?.stringValue ?? "",
                params: map(.params), query: map(.query), fragment: fields[.fragment]?.stringValue,
                context: context, state: state.isNull ? nil : state)
            // The request's copies (the screen may keep it) are charged before the factory sees
            // them, for as long as the screen's controller lives; a screen not made gives them back.
            let charged = RetainedCost.nativeScreen(request)
            try call.state.chargeExternalCollecting(charged)
            let screen: any NativeScreen
            do {
                screen = try Refusal.refusingAllButLimits(explaining: { "the native screen '\(name)' could not be made: " + $0 }) {
                    try factory(request)
                }
            } catch {
                call.state.releaseExternal(charged)
                throw error
            }
            if let earlier = host.bridge.madeNativeScreen { call.state.releaseExternal(earlier.charged) }
            host.bridge.madeNativeScreen = (screen, charged)
            return [try call.state.newObject(screen, metatable: try host.bridge.screenMetatable())]
        }
    }

    /// title(screen) -> the screen's title, or nil.
    static let title: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try screen(call).title.map(Value.string) ?? .null]
        }
    }

    /// saved(screen) -> the state to save, as a table by name. Values held by reference cannot be
    /// written to disk: they are left out, with a warning.
    static let saved: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            var leftOut: [String] = []
            var state = OrderedDictionary<String, Value>()
            for (key, value) in try screen(call).savedState().sorted(by: { $0.key < $1.key }) {
                if let plain = value.persistable(at: key, leftOut: &leftOut) { state[key] = plain }
            }
            for item in leftOut { host.warnOnce("not saved: a native screen's state \(item) cannot be written to disk") }
            return [.map(state)]
        }
    }

    private static func screen(_ call: LuaCall) throws(ScriptError) -> any NativeScreen {
        let box = try call.object(1, as: AnyObject.self, name: "screen")
        guard let screen = box as? any NativeScreen else { throw call.typeError(1, name: "screen", expected: "native screen") }
        return screen
    }

    private static func factory(_ name: String, of host: AppHost) throws(Refusal) -> NativeScreenFactory {
        if let factory = host.loader.nativeScreens[name] { return factory }
        let known = host.loader.nativeScreens.keys.sorted()
        throw Refusal("wf.native: no native screen is named '\(name)' "
            + (known.isEmpty ? "(this host makes none: a Swift host registers them by name, docs/embedding.md)"
                : "(this host makes: \(known.joined(separator: ", ")))"))
    }
}

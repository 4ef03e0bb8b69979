import Wayfinder

/// `wayfinder.native.navigator`: the app's `Navigator` lent to Lua. `lua/wayfinder/navigator.lua`
/// wraps it in `wf.navigator`. Every navigation answers `nil, reason` when it fails (no route, a
/// veto, a constructor's error, a limit reached), after which the tree is as it was.
enum NavigatorBinding {
    static let functions: [(String, LuaBinding)] = [
        ("open", open), ("back", back), ("dismiss", dismiss), ("tabs", tabs), ("select", select),
        ("top", top), ("url", url), ("tree", tree),
        ("set_delegate", setDelegate), ("configure", configure), ("setting", setting),
        ("persist", persist), ("restore", restore), ("route_fields", routeFields),
    ]

    /// route_fields() -> the names of the fields the host hands `make`, in the order it passes them.
    static let routeFields: LuaBinding = { L in
        LuaCall.run(L) { _ in [.array(RouteField.allCases.map { .string($0.rawValue) })] }
    }

    /// open(url [, action]) -> controller | true | nil, reason. `action` is the script's table,
    /// read by name (`ActionField`) and handed back to the Lua side that makes the controller so
    /// its query values keep their identity; the query is also kept, value by value, for the
    /// saved state.
    static let open: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let url: String
            switch try call.text(1, name: "url") {
            case .success(let text): url = text
            case .failure(let notUTF8): return [.null, .string(notUTF8.description)]
            }
            var request = NavigationRequest(url: url)
            if call.type(2) == .table {
                request.payload = .handle(try call.handle(2, kind: "action"))
                try call.forEachField(ofTableAt: 2) { field, key, index throws(ScriptError) in
                    switch ActionField(rawValue: key) {
                    case .parent: request.parent = try field.optionalString(index, name: "action.parent")
                    case .state:
                        let state = try field.state.value(at: Int32(index), in: call.thread)
                        request.state = state.isNull ? nil : state
                    case .query:
                        guard field.type(index) == .table else { break }
                        // Each value alone: one that is not plain data is held (it reaches the
                        // constructor all the same) and left out of the saved state by its key.
                        let (query, leftOut) = call.state.fieldsHoldingTables(ofTableAt: Int32(index), in: call.thread)
                        request.query = query
                        for item in leftOut { host.warnOnce("not saved: \(url): query \(item) cannot be written to disk") }
                    // animated and transition are for a presenting host; this one has none.
                    case .url, .context, .model, .animated, .transition, nil: break
                    }
                }
            }
            return answer(url) {
                guard let controller = try host.navigator.open(request) else { return .bool(true) }
                return .handle(controller.handle)
            }
        }
    }

    /// The fields of an open's action table. `context` and `model` are read by the Lua side that
    /// makes the controller; `url` is open's first argument.
    enum ActionField: String, CaseIterable {
        case url, query, parent, state, context, animated, transition, model
    }

    static let back: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return answer(nil) { .bool(try host.navigator.back()) }
        }
    }

    static let dismiss: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return answer(nil) { .bool(try host.navigator.dismiss()) }
        }
    }

    /// tabs({ url, ... }) -> true | nil, reason
    static let tabs: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let urls = try call.value(1, name: "urls").arrayValue?.compactMap(\.stringValue) ?? []
            return answer(nil) {
                try host.navigator.setTabs(urls)
                return .bool(true)
            }
        }
    }

    /// select(i), 1-based -> whether there was such a tab
    static let select: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let index = try call.int(1, name: "tab")
            return answer(nil) {
                .bool(try host.navigator.select(tabNumber: index))
            }
        }
    }

    static let top: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try AppHost.from(call).navigator.top.map { .handle($0.handle) } ?? .null]
        }
    }

    static let url: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try AppHost.from(call).navigator.url.map(Value.string) ?? .null]
        }
    }

    static let tree: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try AppHost.from(call).navigator.tree.snapshot]
        }
    }

    /// persist() -> true | nil, reason
    static let persist: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return answer(nil) {
                try host.persist()
                return .bool(true)
            }
        }
    }

    /// restore() -> whether a saved state was restored | nil, reason
    static let restore: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return answer(nil) { .bool(try host.restore()) }
        }
    }

    /// set_delegate(present): the delegate hooks are asked only while a delegate table is set.
    static let setDelegate: LuaBinding = { L in
        LuaCall.run(L) { call in
            try AppHost.from(call).bridge.delegateIsSet = call.isTruthy(1)
            return []
        }
    }

    /// configure("persistence" | "expiration", value) -> true | nil, reason
    static let configure: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let key = try call.string(1, name: "field")
            let value = try call.value(2, name: key)
            switch key {
            case "persistence":
                guard let mode = value.stringValue.flatMap(PersistenceMode.init(rawValue:)) else {
                    return [.null, .string("nav.persistence must be \"none\", \"top\" or \"all\", got \(value)")]
                }
                host.config.persistence = mode
            case "expiration":
                guard let seconds = value.doubleValue, seconds >= 0, seconds.isFinite else {
                    return [.null, .string("nav.expiration must be a number of seconds >= 0 (0 = never), got \(value)")]
                }
                host.config.expiration = seconds
            default:
                return [.null, .string("nav.\(key) is not a setting")]
            }
            return [.bool(true)]
        }
    }

    /// setting("persistence" | "expiration") -> its value
    static let setting: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            switch try call.string(1, name: "field") {
            case "persistence": return [.string(host.config.persistence.rawValue)]
            case "expiration":
                let seconds = host.config.expiration
                return [seconds.rounded() == seconds && abs(seconds) < 1e15 ? .int(Int64(seconds)) : .double(seconds)]
            default: return [.null]
            }
        }
    }

    /// Runs a navigation: its value, or `nil, reason` for any failure. A failure names the URL
    /// when the reason does not already.
    private static func answer(_ url: String?, _ body: () throws -> Value) -> [Value] {
        do {
            return [try body()]
        } catch let error as ScriptError {
            let reason = url.map { "cannot open '\($0)': \(error.message)" } ?? error.message
            return [.null, .string(reason)]
        } catch {
            return [.null, .string(String(describing: error))]
        }
    }
}

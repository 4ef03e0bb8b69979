import OrderedCollections
import Wayfinder

/// `wayfinder.native.navigator`: the app's `Navigator` lent to Lua. `lua/wayfinder/navigator.lua`
/// wraps it in `wf.navigator`. Every navigation answers `nil, reason` when it fails (no route, a
/// veto, a constructor's error, a limit reached), after which the tree is as it was.
package enum NavigatorBinding {
    static let functions: [(String, LuaBinding)] = [
        ("open", open), ("handle_link", handleLink), ("back", back), ("dismiss", dismiss), ("pop_to_root", popToRoot),
        ("tabs", tabs), ("select", select), ("resume", resume), ("pending", pending), ("drop_pending", dropPending),
        ("top", top), ("url", url), ("tree", tree),
        ("set_delegate", setDelegate), ("configure", configure), ("setting", setting),
        ("persist", persist), ("restore", restore), ("fields", fields), ("check_presentation", checkPresentation),
    ]

    /// fields() -> { action, model, make, persist, settings = { "persistence", ... }, controller, screen, presentations = { "push", ... } }:
    /// the records that cross with an open (`OpenAction`, its `model` the document's
    /// `StateDocument.ModelField`, `MakeField` in the order `make` takes them, `PersistRecord`,
    /// the fields set on every controller, `ControllerField`, and what `render()` answers,
    /// `ScreenRecord`),
    /// each `{ name, symbol, type, host, ... }`; the settings `nav.<name>` reads and writes;
    /// the presentation verbs (`Presentation`).
    static let fields: LuaBinding = { L in
        LuaCall.run(L) { _ in
            [["action": OpenAction.exported, "model": StateDocument.ModelField.exported, "make": MakeField.exported,
              "persist": PersistRecord.exported, "settings": .array(AppOption.settings.map { .string($0.rawValue) }),
              "controller": ControllerField.exported, "screen": ScreenRecord.exported,
              "presentations": .array(Presentation.allCases.map { .string($0.rawValue) })]]
        }
    }

    /// The presentation named `name`, or the refusal `Presentation.option` words.
    package static func presentation(_ name: String, as subject: String) throws(Refusal) -> Presentation {
        try Presentation.option(name, for: "\(subject): presentation", failing: Refusal.init)
    }

    /// check_presentation(name, subject) -> true | nil, reason: the check of an action's
    /// presentation, which the Lua side raises at the script's line.
    static let checkPresentation: LuaBinding = { L in
        LuaCall.run(L) { call in
            _ = try presentation(try call.string(1, name: "presentation"), as: try call.string(2, name: "subject"))
            return [.bool(true)]
        }
    }

    /// open(url [, action [, presentation]]) -> controller | true | nil, reason. `action` is the
    /// script's table, read by name (`OpenAction`) and handed back to the Lua side that makes
    /// the controller so its query values keep their identity; the query is also kept, value by
    /// value, for the saved state. `presentation` (nav:replace's) wins over the action's.
    static let open: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let url = try call.text(1, name: "url")
            var request = NavigationRequest(url: url)
            if let name = try call.optionalString(3, name: "presentation") { request.presentation = try presentation(name, as: "nav:open") }
            var actionPresentation: String?
            if call.type(2) == .table {
                request.payload = .handle(try call.handle(2, kind: "action"))
                // A state or query whose copy does not fit refuses the open (`nil, reason`), as an
                // entry that does not fit does; the walk stops there.
                var refusal: Refusal?
                do throws(ScriptError) {
                    try call.forEachField(ofTableAt: 2) { field, key, index throws(ScriptError) in
                        switch OpenAction(rawValue: key) {
                        case .parent: request.parent = try field.optionalString(index, name: "action.parent")
                        case .presentation: actionPresentation = try field.optionalString(index, name: "action.presentation")
                        case .state:
                            // Saved with the entry, so plain data only; the Lua side checked the rest.
                            let state: Value
                            do throws(ScriptError) {
                                state = try field.state.value(at: Int32(index), in: call.thread, named: "state")
                            } catch where error.kind == .memory || error.kind == .timeout {
                                refusal = Refusal("cannot open '\(url)': \(error.message)")
                                throw error
                            } catch {
                                throw ScriptError(kind: .conversion, message: "nav:open: action field 'state' is not plain data: \(error.message)")
                            }
                            request.state = state.isNull ? nil : state
                        case .query:
                            guard field.type(index) == .table else { break }
                            // Each value alone: one that is not plain data is held (it reaches the
                            // constructor all the same) and left out of the saved state by its key.
                            let (query, leftOut): (OrderedDictionary<String, Value>, [String])
                            do throws(ScriptError) {
                                (query, leftOut) = try call.state.fieldsHoldingTables(ofTableAt: Int32(index), in: call.thread, named: "query")
                            } catch {
                                refusal = Refusal("cannot open '\(url)': \(error.message)")
                                throw error
                            }
                            request.query = query
                            for item in leftOut { host.warnOnce("not saved: \(url): query \(item) cannot be written to disk") }
                        // animated and transition are for a presenting host; this one has none.
                        // route and params became the URL on the Lua side.
                        case .url, .route, .params, .context, .model, .animated, .transition, nil: break
                        }
                    }
                } catch {
                    if let refusal { throw refusal }
                    throw error
                }
            }
            if request.presentation == nil, let actionPresentation { request.presentation = try presentation(actionPresentation, as: "nav:open") }
            return try navigation(url) {
                guard let controller = try host.navigator.open(request) else { return .bool(true) }
                return .handle(controller.handle)
            }
        }
    }

    /// handle_link(url) -> controller | true | nil, reason: a link from outside the app
    /// (`Navigator.handleLink`).
    static let handleLink: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let url = try call.text(1, name: "url")
            return try navigation(url) {
                guard let controller = try host.navigator.handleLink(url) else { return .bool(true) }
                return .handle(controller.handle)
            }
        }
    }

    /// resume() -> controller | true when the pending open opened, false when there is none or
    /// its guard still stops it, nil, reason when it failed (it is dropped then).
    static let resume: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return try navigation(host.navigator.pendingOpen?.request.url) {
                switch try host.navigator.resume() {
                case .nothingPending, .waiting: return .bool(false)
                case .opened(let controller): return controller.map { .handle($0.handle) } ?? .bool(true)
                }
            }
        }
    }

    /// pending() -> `PendingRecord` | nil: the open a guard keeps waiting.
    static let pending: LuaBinding = { L in
        LuaCall.run(L) { call in
            [try AppHost.from(call).navigator.pendingOpen.map(described) ?? .null]
        }
    }

    /// A pending open as scripts and specs see it (`PendingRecord`).
    package static func described(_ pending: PendingOpen) -> Value {
        PendingRecord.value(of: pending)
    }

    /// drop_pending() -> whether an open was pending
    static let dropPending: LuaBinding = { L in
        LuaCall.run(L) { call in [.bool(try AppHost.from(call).navigator.dropPending())] }
    }

    static let popToRoot: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return try navigation(nil) { .bool(try host.navigator.popToRoot()) }
        }
    }

    static let back: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return try navigation(nil) { .bool(try host.navigator.back()) }
        }
    }

    static let dismiss: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return try navigation(nil) { .bool(try host.navigator.dismiss()) }
        }
    }

    /// tabs({ url, ... }) -> true | nil, reason
    static let tabs: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let urls = try call.value(1, name: "urls").arrayValue?.compactMap(\.stringValue) ?? []
            return try navigation(nil) {
                // The tabs' entries keep their URLs (until made, charged by nothing else): the
                // list is charged in place of the last one, and a list that does not fit is not set.
                let charge = try ExternalCharge(urls.reduce(0) { $0 + RetainedCost.entry(url: $1) }, to: call.state)
                try host.navigator.setTabs(urls)
                host.keptCharges.tabs = charge
                return .bool(true)
            }
        }
    }

    /// select(i), 1-based -> whether there was such a tab
    static let select: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let index = try call.int(1, name: "tab")
            return try navigation(nil) {
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
            return try navigation(nil) {
                try host.persist()
                return .bool(true)
            }
        }
    }

    /// restore() -> whether a saved state was restored | nil, reason
    static let restore: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return try navigation(nil) { .bool(try host.restore()) }
        }
    }

    /// set_delegate(present): the delegate hooks are asked only while a delegate table is set.
    static let setDelegate: LuaBinding = { L in
        LuaCall.run(L) { call in
            try AppHost.from(call).bridge.delegateIsSet = call.isTruthy(1)
            return []
        }
    }

    /// configure(setting, value) -> true | nil, reason
    static let configure: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let key = try call.string(1, name: "setting")
            let value: Value
            do throws(ScriptError) {
                value = try call.state.value(at: 2, in: call.thread, named: "nav.\(key)")
            } catch {
                throw Refusal(error.message)
            }
            guard let setting = AppOption.setting(named: key) else { throw Refusal("nav.\(key) is not a setting") }
            try setting.apply(value, to: &host.config, as: "nav.\(key)")
            return [.bool(true)]
        }
    }

    /// setting(name) -> its value, nil for a name that is not a setting
    static let setting: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            return [AppOption.setting(named: try call.string(1, name: "setting"))?.value(in: host.config) ?? .null]
        }
    }

    /// Runs a navigation: its value, or a refusal (`nil, reason`) for any failure. A failure
    /// names the URL when the reason does not already.
    private static func navigation(_ url: String?, _ body: () throws -> Value) throws(Refusal) -> [Value] {
        do {
            return [try body()]
        } catch let error as ScriptError {
            throw Refusal(url.map { "cannot open '\($0)': \(error.message)" } ?? error.message)
        } catch {
            throw Refusal(String(describing: error))
        }
    }
}

import OrderedCollections
import Wayfinder

/// How the navigator's `ControllerFactory` and `NavigatorDelegate` reach Lua: every call goes
/// through one of the navigator module's host functions (`LuaHostHooks`), protected and
/// under the state's limits, so a script's error fails the one open it happened in.
extension AppHost {
    func controllerFactory(_ hooks: LuaHostHooks) -> ControllerFactory<LuaTarget, LuaController> {
        ControllerFactory(
            make: { [unowned self] match, request in
                let route = Self.routeValue(match, request)
                let made = try state.callHoldingResult(hooks.make, [.handle(match.route.target.handle), route, request.payload ?? .null], kind: "controller")
                if made != nil { constructedCount += 1 }
                return made.map(LuaController.init(handle:))
            },
            handleFragment: { [unowned self] controller, match in
                try state.call(hooks.fragment, [.handle(controller.handle), Self.routeValue(match, NavigationRequest(url: match.url.text))])
            },
            appear: { [unowned self] controller in callHook("appear", on: controller, hooks) },
            disappear: { [unowned self] controller in callHook("disappear", on: controller, hooks) })
    }

    /// A controller leaving the tree takes its context observers with it. Until the app observes
    /// anything there is nothing to take, so the navigator is not asked to report leavers (which
    /// costs it a pass over the tree and a call into Lua for each).
    func observeLeavers() {
        guard navigator.factory.leave == nil, let hooks = hostHooks else { return }
        navigator.factory.leave = { [unowned self] controller in
            do { try state.call(hooks.leave, [.handle(controller.handle)]) } catch { warn("leaving: \(error)") }
        }
    }

    /// appear and disappear come after the tree changed; an error in one is reported, not undone.
    private func callHook(_ name: String, on controller: LuaController, _ hooks: LuaHostHooks) {
        do {
            try state.call(hooks.hook, [.handle(controller.handle), .string(name)])
        } catch {
            warn("\(name): \(error.message)")
        }
    }

    /// The route table a constructor sees: the match, the URL's query joined by the request's
    /// (the Lua side adds an action's query values by reference), and the saved state.
    static func routeValue(_ match: RouteMatch<LuaTarget>, _ request: NavigationRequest) -> Value {
        var query = match.query
        for (key, value) in request.query { query[key] = value }
        let route: OrderedDictionary<String, Value> = [
            "url": .string(request.url),
            "pattern": .string(match.route.pattern.text),
            "params": .map(match.params),
            "query": .map(query),
            "fragment": match.fragment.map(Value.string) ?? .null,
            "param_names": .array(match.route.pattern.paramNames.map(Value.string)),
            "selector_option": match.route.options.selector.map(Value.string) ?? .null,
            "mode": .string(match.route.options.mode.rawValue),
            "state": request.state ?? .null,
        ]
        return .map(route)
    }

    /// The delegate hooks, each asking the script's `nav.delegate` table (read at every call,
    /// so a script may change its hooks at any time). Installed only while a delegate is set.
    func navigatorDelegate(_ hooks: LuaHostHooks) -> NavigatorDelegate<LuaController> {
        var delegate = NavigatorDelegate<LuaController>()
        delegate.shouldOpen = { [unowned self] url in
            guard let answer = try askDelegate(hooks, "should_open", [.string(url)]) else { return true }
            return answer.isTruthy
        }
        delegate.urlToOpen = { [unowned self] url in
            guard let answer = try askDelegate(hooks, "url_to_open", [.string(url)]) else { return url }
            switch answer {
            case .string(let target): return target
            case .null, .bool(false): return nil
            default:
                throw ScriptError(kind: .runtime, message: "nav.delegate.url_to_open('\(url)') returned \(answer); it must return a URL, or nil/false to veto")
            }
        }
        delegate.willOpen = { [unowned self] url, controller in
            _ = try askDelegate(hooks, "will_open", [.string(url), .handle(controller.handle)])
        }
        delegate.didNotMatch = { [unowned self] url in
            _ = try askDelegate(hooks, "did_not_match", [.string(url)])
        }
        delegate.openExternal = { [unowned self] url in
            guard try askDelegate(hooks, "open_external", [.string(url)]) != nil else {
                guard let openExternal else { throw NavigationError.noExternalHandler(url) }
                return openExternal(url)
            }
        }
        return delegate
    }

    /// The hook's first result, or nil when the delegate has no such hook.
    private func askDelegate(_ hooks: LuaHostHooks, _ name: String, _ args: [Value]) throws -> Value? {
        let results = try state.call(hooks.delegate, [.string(name)] + args)
        guard results.first?.isTruthy == true else { return nil }
        return results.count > 1 ? results[1] : .null
    }
}

extension Value {
    /// As Lua tests a condition: only nil and false are false.
    var isTruthy: Bool {
        switch self {
        case .null, .bool(false): return false
        default: return true
        }
    }
}

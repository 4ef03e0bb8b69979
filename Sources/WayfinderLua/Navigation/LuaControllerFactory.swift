import OrderedCollections
import Wayfinder

/// How the navigator's `ControllerFactory` and `NavigatorDelegate` reach Lua: every call goes
/// through one of the navigator module's host functions (`LuaHostHooks`), protected and
/// under the state's limits, so a script's error fails the one open it happened in.
extension AppHost {
    func controllerFactory(_ hooks: LuaHostHooks) -> ControllerFactory<LuaTarget, LuaController> {
        ControllerFactory(
            make: { [unowned self] match, request in
                // The controller the new screen opens over goes along (its context is the new
                // one's inner layer), so the Lua side need not call back for it.
                let opener: Value = (request.opener as? LuaController).map { .handle($0.handle) } ?? .null
                // Allocated once at its full size.
                var args = [Value]()
                args.reserveCapacity(3 + RouteField.inOrder.count)
                args.append(.handle(match.route.target.handle))
                args.append(request.payload ?? .null)
                args.append(opener)
                appendRouteFields(match, request, to: &args)
                let handed = (request.query.isEmpty ? 0 : Value.map(request.query).retainedSize) + (request.state?.retainedSize ?? 0)
                let charge = handed > 0 ? try ExternalCharge(handed, to: state) : nil
                let made = try state.callHoldingResult(hooks.make, args, kind: "controller")
                if made != nil { constructedCount += 1 }
                return made.map { LuaController(handle: $0, ref: state.ref(for: $0), charge: charge) }
            },
            handleFragment: { [unowned self] controller, match in
                // Only a pattern whose fragment is a named param names a method to call; any
                // other fragment is handed to the controller as data.
                let namesMethod = match.route.pattern.fragment?.param?.name != nil
                try state.call(hooks.fragment, [.handle(controller.handle), routeValue(match, NavigationRequest(url: match.url.text)), .bool(namesMethod)])
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
    /// A controller whose lookup of the hook certainly gives nil would have the Lua side return
    /// at once, so that call is not made.
    private func callHook(_ name: String, on controller: LuaController, _ hooks: LuaHostHooks) {
        if let ref = controller.ref, state.certainlyLacks(name, in: ref) { return }
        do {
            try state.call(hooks.hook, [.handle(controller.handle), .string(name)])
        } catch {
            warn("\(name): \(error.message)")
        }
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

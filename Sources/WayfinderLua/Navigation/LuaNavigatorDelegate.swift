import Wayfinder

/// The navigator's `NavigatorDelegate` for a Lua app: each hook asks the script's `nav.delegate`
/// through the navigator module's host function.
extension LuaNavigatorBridge {
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

import Wayfinder

/// Owner of the one Swift observer each observed (context, key) gets on behalf of Lua. Lua keeps
/// its observers itself (owners held weakly in an ephemeron table, so a callback that captures its
/// owner does not keep it alive); this object lives as long as the host.
final class ContextObserverBridge {}

extension AppHost {
    /// Routes sets of `key` on `context` to the Lua side's observers, once per (context, key).
    func bridgeObservers(of context: ContextChain, key: String) throws {
        guard !context.isObserved(key, by: contextObserverBridge), let hooks = hostHooks else { return }
        observeLeavers()
        let id = Int64(context.id)
        try context.observe(key, owner: contextObserverBridge) { [unowned self] _, value, key in
            let failures = try state.call(hooks.dispatch, [.int(id), .string(key), value])
            if case .array(let messages)? = failures.first, !messages.isEmpty {
                throw ScriptError(kind: .runtime, message: messages.compactMap(\.stringValue).joined(separator: "; "))
            }
        }
    }

    /// The metatable context userdata share (Wayfinder gives it its `__gc`).
    func contextMetatable() throws(ScriptError) -> LuaRef {
        if let contextMetatableRef { return contextMetatableRef }
        let made = try state.makeTable([])
        contextMetatableRef = made
        return made
    }
}

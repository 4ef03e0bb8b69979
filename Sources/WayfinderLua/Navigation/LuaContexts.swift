import Wayfinder

/// Contexts as the script sees them: userdata sharing one metatable (Wayfinder gives it its
/// `__gc`), and the observers of a (context, key) the script asked for, each bridged once to the
/// Lua side's observers. Lua keeps its observers itself (owners held weakly in an ephemeron table,
/// so a callback that captures its owner does not keep it alive); the Swift observer is owned by
/// the bridge, which lives as long as the host.
extension LuaNavigatorBridge {
    /// Routes sets of `key` on `context` to the Lua side's observers, once per (context, key).
    func bridgeObservers(of context: ContextChain, key: String) throws {
        guard !context.isObserved(key, by: self), let hooks else { return }
        // The observer lives as long as the layer: charged to it, before it is added.
        try contextCharges.keepWithLayer(context, bytes: RetainedCost.observer(key: key), in: state)
        observeLeavers()
        let id = Int64(context.id)
        try context.observe(key, owner: self) { [unowned self] _, value, key in
            let failures = try state.call(hooks.dispatch, [.int(id), .string(key), value])
            if case .array(let messages)? = failures.first, !messages.isEmpty {
                throw ScriptError(kind: .runtime, message: messages.compactMap(\.stringValue).joined(separator: "; "))
            }
        }
    }

    /// The metatable context userdata share.
    func contextMetatable() throws(ScriptError) -> LuaRef {
        if let contextMetatableRef { return contextMetatableRef }
        let made = try state.makeTable([])
        contextMetatableRef = made
        return made
    }

    /// The app context's Swift layer: what every chain ends in.
    var appContext: ContextChain? {
        hooks.flatMap { state.object(.handle($0.appCore), as: ContextChain.self) }
    }
}

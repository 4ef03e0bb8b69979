extension Navigator {
    /// Replaces the tree with the one `state` describes, making only the visible controller
    /// (with its saved query and state); every other entry is made when it becomes visible.
    /// Contexts are made again as saved, the app layer's values going into `appContext`. Saved
    /// URLs of moved routes are rewritten first (`moves`).
    /// Entries whose URL no longer opens a screen are dropped with a warning. False when nothing
    /// of the state could be restored: the tree is then as it was, or empty if every restored
    /// entry failed to be made. With `strict`, a visible controller whose constructor fails
    /// throws instead (a hot reload keeps the old app then). Observers hear one
    /// `.replacedTree(replacement)`.
    @discardableResult
    public func restore(_ state: NavigationState, appContext: ContextChain? = nil, strict: Bool = false,
                        as replacement: NavigationChange.Replacement = .restore,
                        payload: (NavigationState.Entry, ContextChain?) throws -> Value? = { _, _ in nil }) throws -> Bool {
        let (state, unmoved) = try state.following(moves: moves)
        for problem in unmoved { warn(problem) }
        let (contexts, problems) = state.restoredContexts(appContext: appContext)
        for problem in problems { warn(problem) }
        let (restored, dropped): (NavigationTree<Controller>, [String]) = state.restoredTree(routes: routes, contexts: contexts, payload: payload)
        for entry in dropped { warn("dropped \(entry)") }
        guard restored.visible != nil else { return false }
        try replaceTree(restored, strict: strict, as: replacement)
        return tree.visible != nil
    }
}

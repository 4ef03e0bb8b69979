import Foundation

extension Navigator {
    /// The tree as a `NavigationState` (`NavigationTree.captured`), with the pending open, if
    /// any, as far as it is plain data (what is not is named in `leftOut`). Mode `.none` keeps
    /// nothing.
    public func captured(mode: PersistenceMode, app: String? = nil, savedAt: Date = Date(), appContext: ContextChain? = nil,
                         record: (NavigationEntry<Controller>, Controller) -> ControllerRecord) -> (state: NavigationState, leftOut: [String]) {
        var (state, leftOut) = tree.captured(mode: mode, app: app, savedAt: savedAt, appContext: appContext, record: record)
        if mode != .none, let pendingOpen { state.pending = NavigationState.Pending(pendingOpen, leftOut: &leftOut) }
        return (state, leftOut)
    }

    /// Replaces the tree with the one `state` describes, making only the visible controller
    /// (with its saved query and state); every other entry is made when it becomes visible.
    /// Contexts are made again as saved, the app layer's values going into `appContext`. Saved
    /// URLs of moved routes are rewritten first (`moves`). The saved pending open, if any, waits
    /// again in place of the one waiting now (unless it expired by `clock`), and is tried once the
    /// tree is in place; a state with nothing to restore brings none.
    /// Entries whose URL no longer opens a screen are dropped with a warning. False when nothing
    /// of the state could be restored: the tree is then as it was, or empty if every restored
    /// entry failed to be made. With `strict`, a visible controller whose constructor fails
    /// throws instead (a hot reload keeps the old app then). `adjusting` is what the host changes
    /// in the state once its URLs followed the moves (an app's tabs following its current list).
    /// Observers hear one `.replacedTree(replacement)`.
    @discardableResult
    public func restore(_ state: NavigationState, appContext: ContextChain? = nil, strict: Bool = false,
                        as replacement: NavigationChange.Replacement = .restore,
                        payload: (NavigationState.Entry, ContextChain?) throws -> Value? = { _, _ in nil },
                        adjusting adjust: (NavigationState) throws -> NavigationState = { $0 }) throws -> Bool {
        try operation { try restoring(state, appContext: appContext, strict: strict, as: replacement, adjusting: adjust, payload: payload) }
    }

    private func restoring(_ state: NavigationState, appContext: ContextChain?, strict: Bool, as replacement: NavigationChange.Replacement,
                           adjusting adjust: (NavigationState) throws -> NavigationState,
                           payload: (NavigationState.Entry, ContextChain?) throws -> Value?) throws -> Bool {
        let (moved, unmoved) = try state.following(moves: moves)
        for problem in unmoved { warn(problem) }
        let state = try adjust(moved)
        let (contexts, problems) = state.restoredContexts(appContext: appContext)
        for problem in problems { warn(problem) }
        let (restored, dropped, matches): (NavigationTree<Controller>, [String], RestoredMatches<Target>) =
            state.restoredTreeAndMatches(routes: routes, contexts: contexts, payload: payload)
        for entry in dropped { warn("dropped \(entry)") }
        droppedSavedEntries += dropped.count
        guard restored.visible != nil else { return false }
        try replaceTree(restored, strict: strict, as: replacement, matches: matches)
        // The saved waiting open replaces the one waiting now, as the saved tree replaced the tree;
        // its guard is asked when this operation ends, with the restored tree in place.
        dropPending()
        if let pending = state.pending { keepPending(PendingOpen(pending)) }
        return tree.visible != nil
    }
}

extension NavigationState.Pending {
    /// The pending open as it is saved; query and state values that cannot be written are left
    /// out and named in `leftOut`.
    public init(_ pending: PendingOpen, leftOut: inout [String]) {
        let request = pending.request
        let query = request.query.isEmpty ? nil : Value.map(request.query).persistable(at: "pending \(request.url): query", leftOut: &leftOut)?.mapValue
        self.init(url: request.url, query: query?.isEmpty == false ? query : nil, parent: request.parent,
                  state: request.state.flatMap { $0.persistable(at: "pending \(request.url): state", leftOut: &leftOut) },
                  presentation: request.presentation, fromOutside: request.fromOutside, since: pending.since)
    }
}

extension PendingOpen {
    /// A saved pending open, to wait again.
    public init(_ saved: NavigationState.Pending) {
        var request = NavigationRequest(url: saved.url, query: saved.query ?? [:], parent: saved.parent, state: saved.state,
                                        presentation: saved.presentation)
        request.fromOutside = saved.fromOutside
        self.init(request: request, since: saved.since)
    }
}

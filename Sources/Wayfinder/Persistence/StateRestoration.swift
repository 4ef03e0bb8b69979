extension NavigationState {
    /// The saved contexts made again, chained as they were: one new layer for each, except the
    /// app layer, whose saved values go into `appContext` (the host's own shared layer). A value
    /// a typed field no longer accepts is left out and named in `problems`, as is an observer of
    /// the app context that fails on a restored value.
    public func restoredContexts(appContext: ContextChain?) -> (contexts: [ContextChain], problems: [String]) {
        var made = [ContextChain]()
        var problems = [String]()
        for saved in contexts {
            let context: ContextChain
            if saved.isApp, let appContext {
                context = appContext
            } else {
                context = ContextChain(name: saved.name, inner: saved.inner.map { made[$0] }, fields: saved.fields ?? [:])
            }
            for (key, value) in saved.values {
                do {
                    for failure in try context.set(key, value) { problems.append("observer of '\(failure.key)': \(failure.error)") }
                } catch {
                    problems.append("context '\(saved.name ?? "(unnamed)")': \(key) not restored: \(error)")
                }
            }
            made.append(context)
        }
        return (made, problems)
    }

    /// The tree this state describes, with no controller made yet: each entry waits with what
    /// was saved for it, its context (from `contexts`, as `restoredContexts` made them) and the
    /// host's `payload` for it. An entry whose URL no longer opens a screen (no route, or the
    /// route is now an action) is left out and named in `dropped`; the rest of its stack keeps
    /// its order, and a stack left empty goes (a tab, a modal).
    public func restoredTree<Target, Controller>(
        routes: RouteTable<Target>, contexts: [ContextChain],
        payload: (Entry, ContextChain?) throws -> Value? = { _, _ in nil }
    ) -> (tree: NavigationTree<Controller>, dropped: [String]) {
        let (tree, dropped, _): (NavigationTree<Controller>, [String], RestoredMatches<Target>) =
            restoredTreeAndMatches(routes: routes, contexts: contexts, payload: payload)
        return (tree, dropped)
    }

    /// `restoredTree`, with the match each entry was checked by, so the navigator makes the
    /// visible controller from it instead of matching its URL again.
    func restoredTreeAndMatches<Target, Controller>(
        routes: RouteTable<Target>, contexts: [ContextChain],
        payload: (Entry, ContextChain?) throws -> Value?
    ) -> (tree: NavigationTree<Controller>, dropped: [String], matches: RestoredMatches<Target>) {
        var dropped = [String]()
        var matches = RestoredMatches<Target>()
        // Only a stack's top can be the visible entry, so only its match is kept: the entries
        // under it are made later, if at all, by a fresh match.
        func stack(_ saved: [Entry]) -> NavigationStack<Controller> {
            var top: (NavigationEntry<Controller>, RouteMatch<Target>)?
            let entries = saved.compactMap { entry -> NavigationEntry<Controller>? in
                do {
                    let (restored, match): (NavigationEntry<Controller>, RouteMatch<Target>) =
                        try restoredEntry(entry, routes: routes, contexts: contexts, payload: payload)
                    top = (restored, match)
                    return restored
                } catch {
                    dropped.append("'\(entry.url)': \(error)")
                    return nil
                }
            }
            if let (entry, match) = top { matches.keep(match, for: entry) }
            return NavigationStack(entries: entries)
        }
        var tree = NavigationTree<Controller>()
        switch root {
        case .stack(let entries):
            tree.root = .stack(stack(entries))
        case .tabs(let tabs, let selected):
            let stacks = tabs.map(stack)
            // Tabs left empty go; the selection follows its tab, else falls to the one before.
            let kept = stacks.indices.filter { !stacks[$0].entries.isEmpty }
            if kept.isEmpty {
                tree.root = .stack(NavigationStack(entries: []))
            } else {
                let newSelected = kept.lastIndex { $0 <= selected } ?? 0
                tree.root = .tabs(kept.map { stacks[$0] }, selected: newSelected)
            }
        }
        tree.modals = modals.map(stack).filter { !$0.entries.isEmpty }
        if let popover { tree.popover = stack([popover]).top }
        return (tree, dropped, matches)
    }

    private func restoredEntry<Target, Controller>(
        _ saved: Entry, routes: RouteTable<Target>, contexts: [ContextChain],
        payload: (Entry, ContextChain?) throws -> Value?
    ) throws -> (NavigationEntry<Controller>, RouteMatch<Target>) {
        let url: NavigationURL
        do { url = try NavigationURL(saved.url) } catch { throw NavigationError.malformedURL(saved.url, reason: error.description) }
        guard case .matched(let match) = try routes.match(url) else {
            throw NavigationError.noRoute(saved.url, reason: MatchResult<Target>.noRouteReason)
        }
        let mode = match.route.options.mode
        if mode == .none {
            throw NavigationError.controllerFailed(saved.url, reason: "its route '\(match.route.pattern.text)' is now an action (mode none)")
        }
        let context = saved.context.map { contexts[$0] }
        let pending = PendingEntry(saved: saved, context: context, payload: try payload(saved, context))
        let entry = NavigationEntry<Controller>(url: saved.url, key: URLNormalization.key(for: url), mode: mode, query: saved.query ?? [:],
                                                controller: nil, pending: pending)
        return (entry, match)
    }
}

/// The match each restored entry was checked by, by entry, for the restore that made them: the
/// visible controller is made from its entry's match, its URL matched once (a param type's
/// function runs once). Kept for that restore only, as the route table may change after it.
struct RestoredMatches<Target> {
    // Nil until a restore keeps a match: every commit takes one of these, and an empty
    // dictionary of a generic value costs a metadata lookup on each open that restores nothing.
    private var byEntry: [ObjectIdentifier: RouteMatch<Target>]?

    mutating func keep<Controller>(_ match: RouteMatch<Target>, for entry: NavigationEntry<Controller>) {
        byEntry = byEntry ?? [:]
        byEntry?[ObjectIdentifier(entry)] = match
    }

    func match<Controller>(of entry: NavigationEntry<Controller>) -> RouteMatch<Target>? {
        byEntry?[ObjectIdentifier(entry)]
    }
}

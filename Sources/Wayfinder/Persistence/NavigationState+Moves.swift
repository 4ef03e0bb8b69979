extension NavigationState {
    /// The state with every saved URL of a moved route rewritten to where it moved
    /// (docs/persistence.md, "Renamed routes"), before anything is matched or compared: a tab whose
    /// first URL moved is still the tab of `wf.app`'s new list. A URL a move matches but cannot
    /// take anywhere stays as it was, and is named in `problems`; the restore then drops it, as
    /// any URL that no longer opens.
    public func following(moves: RouteMoves) throws -> (state: NavigationState, problems: [String]) {
        guard !moves.isEmpty else { return (self, []) }
        var problems = [String]()
        func rewritten(_ entry: Entry) throws -> Entry {
            switch try moves.rewrite(entry.url) {
            case .unmoved: return entry
            case .moved(let url):
                var moved = entry
                moved.url = url
                return moved
            case .failed(let why):
                problems.append("'\(entry.url)' matches a moved route but cannot move: \(why)")
                return entry
            }
        }
        func stack(_ entries: [Entry]) throws -> [Entry] { try entries.map(rewritten) }
        var state = self
        switch root {
        case .stack(let entries): state.root = .stack(try stack(entries))
        case .tabs(let tabs, let selected): state.root = .tabs(try tabs.map(stack), selected: selected)
        }
        state.modals = try modals.map(stack)
        state.popover = try popover.map(rewritten)
        return (state, problems)
    }
}

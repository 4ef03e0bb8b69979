/// A saved state whose app changed its tab list since: the restored tree follows the app's list
/// as it is now. A tab is known by its first screen's URL (compared as share mode compares URLs):
/// a tab still in the list keeps its whole stack, in the list's new order; a new tab appears with
/// its URL alone, not made until it is selected; a tab no longer in the list goes.
extension NavigationState {
    /// The state with its root following `urls` (unchanged when `urls` is empty), and what
    /// changed, for a warning: nil when no tab was added or removed.
    public func following(tabs urls: [String]) -> (state: NavigationState, change: String?) {
        guard !urls.isEmpty else { return (self, nil) }
        let saved: [[Entry]]
        let selected: Int
        switch root {
        case .tabs(let tabs, let index): (saved, selected) = (tabs, index)
        case .stack(let entries): (saved, selected) = (entries.isEmpty ? [] : [entries], 0)
        }
        let savedKeys = saved.map { $0.first.map { Self.tabKey($0.url) } }
        var used = Set<Int>()
        var tabs: [[Entry]] = []
        var newSelected = 0
        var added: [String] = []
        for url in urls {
            let key = Self.tabKey(url)
            if let index = savedKeys.indices.first(where: { !used.contains($0) && savedKeys[$0] == key }) {
                used.insert(index)
                if index == selected { newSelected = tabs.count }
                tabs.append(saved[index])
            } else {
                added.append(url)
                tabs.append([Entry(url: url)])
            }
        }
        let removed = saved.indices.filter { !used.contains($0) }.map { saved[$0].first?.url ?? "(an empty tab)" }
        let sameRoot: Bool = {
            if case .tabs = root { return added.isEmpty && removed.isEmpty && used.count == saved.count }
            return false
        }()
        if sameRoot && tabs.map({ $0.first?.url }) == saved.map({ $0.first?.url }) { return (self, nil) }
        var state = self
        state.root = .tabs(tabs, selected: newSelected)
        var parts: [String] = []
        if !added.isEmpty { parts.append("added " + added.joined(separator: ", ")) }
        if !removed.isEmpty { parts.append("removed " + removed.joined(separator: ", ") + " (with the screens saved in it)") }
        let change = parts.isEmpty ? nil : "the app's tabs changed since the state was saved: " + parts.joined(separator: "; ")
        return (state, change)
    }

    private static func tabKey(_ url: String) -> String {
        (try? NavigationURL(url)).map(URLNormalization.key(for:)) ?? url
    }
}

import Wayfinder

extension NavigationSnapshot {
    /// Every entry of the tree: its root's stacks, its modals and its popover.
    var entryCount: Int {
        let rootEntries: Int
        switch root {
        case .stack(let entries): rootEntries = entries.count
        case .tabs(let tabs, _): rootEntries = tabs.reduce(0) { $0 + $1.count }
        }
        return rootEntries + modals.reduce(0) { $0 + $1.count } + (popover == nil ? 0 : 1)
    }
}

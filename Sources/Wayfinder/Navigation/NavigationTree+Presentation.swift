/// The changes the presentation verbs make to a working tree before a screen is placed
/// (`Presentation`), and the sizes that tell whether they left the root without a screen. They
/// reach the stack the user is looking at through `frontEntries` and `changeFrontEntries`.
extension NavigationTree {
    /// The number of entries in each stack of the root: one number for a single stack, one per tab.
    var rootStackSizes: [Int] {
        switch root {
        case .stack(let stack): return [stack.entries.count]
        case .tabs(let tabs, _): return tabs.map(\.entries.count)
        }
    }

    /// `replace`: takes out the screen the user sees: the popover, else the top of the front
    /// stack. A modal left without screens stays for the new screen to go in
    /// (`removingEmptyModals` takes it away when nothing went there). False when nothing shows.
    mutating func takeOutVisible() -> Bool {
        if popover != nil {
            popover = nil
            return true
        }
        return changeFrontEntries { entries in
            guard !entries.isEmpty else { return false }
            entries.removeLast()
            return true
        }
    }

    /// `replace_root`: closes the popover and empties the front stack, for the new screen to be
    /// its only one.
    mutating func emptyVisibleStack() {
        popover = nil
        _ = changeFrontEntries { entries in
            entries.removeAll()
            return true
        }
    }

    /// `clear_all`: closes the popover and every modal, and pops the root's front stack (the
    /// selected tab's) back to its first screen.
    mutating func clearToRoot() {
        popover = nil
        modals.removeAll()
        _ = popFrontStackToFirst()
    }

    /// `pop`: back one screen: the popover closes, else the front stack pops, else a modal of
    /// one screen is dismissed. False at the bottom of the root stack.
    mutating func backOne() -> Bool {
        if pop() { return true }
        return dismiss()
    }

    /// `Navigator.popToRoot`: closes the popover and pops the front stack back to its first
    /// screen. False when there was nothing to close or pop.
    mutating func popVisibleStackToRoot() -> Bool {
        let closed = popover != nil
        popover = nil
        let popped = popFrontStackToFirst()
        return closed || popped
    }

    private mutating func popFrontStackToFirst() -> Bool {
        changeFrontEntries { entries in
            guard entries.count > 1 else { return false }
            entries.removeSubrange(1...)
            return true
        }
    }

    /// `refresh`: the visible entry's place given to `entry` (the popover, or the top of the
    /// front stack).
    mutating func replaceVisible(with entry: NavigationEntry<Controller>) {
        if popover != nil {
            popover = entry
            return
        }
        _ = changeFrontEntries { entries in
            guard !entries.isEmpty else { return false }
            entries[entries.count - 1] = entry
            return true
        }
    }

    /// Takes away modals a verb emptied and nothing filled again.
    mutating func removingEmptyModals() {
        modals.removeAll { $0.entries.isEmpty }
    }
}

/// One change to the navigation tree, as a presenter applies it to its views (docs/events.md).
/// Each change is exactly what it says: nothing else changes with it (a push over a popover
/// comes after its own `.closedPopover`). Numbers are 0-based; entries carry their state after
/// the change.
public enum NavigationChange: Sendable, Hashable {
    /// Why the whole tree was replaced.
    public enum Replacement: Sendable, Hashable {
        /// A saved state was restored (`Navigator.restore`, `replaceTree`).
        case restore
        /// The app's code was loaded again and the tree carried over to it.
        case reload
        /// The app was started again, as the program's next start would find it: loaded afresh
        /// and launched from what its state store kept (`WayfinderHost.relaunch`).
        case relaunch
    }

    /// `entry` went on top of the stack at the location.
    case pushed(NavigationSnapshot.Entry, onto: NavigationSnapshot.StackLocation)
    /// The top `count` entries (one or more) of the stack at the location went: back, or an
    /// open that brought an entry lower in that stack to the front.
    case popped(count: Int, from: NavigationSnapshot.StackLocation)
    /// A new modal stack holding `entry` went above the others (it is the new last one).
    case presentedModal(NavigationSnapshot.Entry)
    /// The top modal stack went, with every entry in it.
    case dismissedModal
    /// `entry` is the popover now.
    case showedPopover(NavigationSnapshot.Entry)
    /// The popover went.
    case closedPopover
    /// The tab at this index is selected now.
    case selectedTab(Int)
    /// The root was replaced: the tab list was set, or changed (a tab none of whose screens
    /// opens any more was removed). Modals and the popover are not touched by it.
    case replacedRoot(NavigationSnapshot.Root)
    /// The entry at the location, already in the tree, had its controller made (a restored
    /// entry or a tab about to be seen). Such changes come first in a batch, at the entry's
    /// place before the batch's other changes, so a presenter can build the screen before it
    /// is shown.
    case loaded(NavigationSnapshot.Entry, at: NavigationSnapshot.Location)
    /// The whole tree was replaced: render the event's tree afresh. Sent alone for its
    /// operation.
    case replacedTree(Replacement)
}

extension NavigationSnapshot {
    /// Applies a change, as a presenter applies it to its views. `.replacedTree` carries no
    /// tree and changes nothing here: its event's tree is the whole answer. A change that does
    /// not fit this snapshot (no such stack or entry) changes nothing.
    mutating func apply(_ change: NavigationChange) {
        switch change {
        case .pushed(let entry, let stack):
            changeEntries(of: stack) { $0.append(entry) }
        case .popped(let count, let stack):
            changeEntries(of: stack) { $0.removeLast(min(count, $0.count)) }
        case .presentedModal(let entry):
            modals.append([entry])
        case .dismissedModal:
            if !modals.isEmpty { modals.removeLast() }
        case .showedPopover(let entry):
            popover = entry
        case .closedPopover:
            popover = nil
        case .selectedTab(let tab):
            if case .tabs(let tabs, _) = root, tabs.indices.contains(tab) { root = .tabs(tabs, selected: tab) }
        case .replacedRoot(let newRoot):
            root = newRoot
        case .loaded(let entry, .popover):
            if popover != nil { popover = entry }
        case .loaded(let entry, .root(let index)):
            changeEntries(of: .root) { if $0.indices.contains(index) { $0[index] = entry } }
        case .loaded(let entry, .tab(let tab, let index)):
            changeEntries(of: .tab(tab)) { if $0.indices.contains(index) { $0[index] = entry } }
        case .loaded(let entry, .modal(let modal, let index)):
            changeEntries(of: .modal(modal)) { if $0.indices.contains(index) { $0[index] = entry } }
        case .replacedTree:
            break
        }
    }

    private mutating func changeEntries(of stack: StackLocation, _ body: (inout [Entry]) -> Void) {
        switch (stack, root) {
        case (.root, .stack(var entries)):
            body(&entries)
            root = .stack(entries)
        case (.tab(let t), .tabs(var tabs, let selected)) where tabs.indices.contains(t):
            body(&tabs[t])
            root = .tabs(tabs, selected: selected)
        case (.modal(let m), _) where modals.indices.contains(m):
            body(&modals[m])
        default:
            break
        }
    }
}

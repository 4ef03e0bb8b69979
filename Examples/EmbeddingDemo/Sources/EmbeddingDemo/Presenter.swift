import Wayfinder
import WayfinderLua

/// What the demo shows, kept as a UIKit adapter keeps its view controllers: a model of the tree
/// of its own (tabs or one stack, modals, a popover), changed only by the host's navigation
/// events. It never reads the host's tree; the host is asked only what a screen shows.
final class Presenter {
    /// One screen: the entry it shows, by id.
    struct Screen {
        let entry: NavigationSnapshot.Entry
    }

    enum Root {
        case stack([Screen])
        case tabs([[Screen]], selected: Int)
    }

    private(set) var root = Root.stack([])
    private(set) var modals: [[Screen]] = []
    private(set) var popover: Screen?
    /// The events applied since the demo last printed.
    private(set) var heard: [String] = []
    /// Every event it applied, in order.
    private(set) var applied: [NavigationEvent] = []

    func apply(_ event: NavigationEvent) {
        heard.append(Self.describe(event.change))
        applied.append(event)
        switch event.change {
        case .pushed(let entry, onto: let stack):
            change(stack) { $0.append(Screen(entry: entry)) }
        case .popped(let count, from: let stack):
            change(stack) { $0.removeLast(count) }
        case .presentedModal(let entry):
            modals.append([Screen(entry: entry)])
        case .dismissedModal:
            modals.removeLast()
        case .showedPopover(let entry):
            popover = Screen(entry: entry)
        case .closedPopover:
            popover = nil
        case .selectedTab(let index):
            if case .tabs(let tabs, _) = root { root = .tabs(tabs, selected: index) }
        case .replacedRoot(let newRoot):
            root = Self.root(newRoot)
        case .loaded(let entry, at: let location):
            replace(at: location, with: Screen(entry: entry))
        case .replacedTree:
            root = Self.root(event.tree.root)
            modals = event.tree.modals.map { $0.map(Screen.init) }
            popover = event.tree.popover.map(Screen.init)
        }
    }

    private static func root(_ root: NavigationSnapshot.Root) -> Root {
        switch root {
        case .stack(let entries): return .stack(entries.map(Screen.init))
        case .tabs(let tabs, let selected): return .tabs(tabs.map { $0.map(Screen.init) }, selected: selected)
        }
    }

    private func change(_ stack: NavigationSnapshot.StackLocation, _ body: (inout [Screen]) -> Void) {
        switch (stack, root) {
        case (.root, .stack(var screens)):
            body(&screens)
            root = .stack(screens)
        case (.tab(let index), .tabs(var tabs, let selected)):
            body(&tabs[index])
            root = .tabs(tabs, selected: selected)
        case (.modal(let index), _):
            body(&modals[index])
        default:
            break
        }
    }

    private func replace(at location: NavigationSnapshot.Location, with screen: Screen) {
        switch location {
        case .root(let index): change(.root) { $0[index] = screen }
        case .tab(let tab, let index): change(.tab(tab)) { $0[index] = screen }
        case .modal(let modal, let index): change(.modal(modal)) { $0[index] = screen }
        case .popover: popover = screen
        }
    }

    /// The tree as the presenter has it, to hold against the host's.
    var snapshot: NavigationSnapshot {
        let entries: ([Screen]) -> [NavigationSnapshot.Entry] = { $0.map(\.entry) }
        switch root {
        case .stack(let screens):
            return NavigationSnapshot(root: .stack(entries(screens)), modals: modals.map(entries), popover: popover?.entry)
        case .tabs(let tabs, let selected):
            return NavigationSnapshot(root: .tabs(tabs.map(entries), selected: selected), modals: modals.map(entries), popover: popover?.entry)
        }
    }

    // MARK: Showing it

    /// What the presenter shows, a line each: the tabs, the stack the user is in, the modals and
    /// the popover, and the visible screen's lines. `title` names a screen.
    func lines(title: (NavigationSnapshot.Entry) -> String, screen: (NavigationSnapshot.Entry) -> [String]) -> [String] {
        var lines = ["events: " + (heard.isEmpty ? "(none)" : heard.joined(separator: ", "))]
        heard = []
        func crumbs(_ screens: [Screen]) -> String { screens.map { title($0.entry) }.joined(separator: " > ") }
        switch root {
        case .stack(let screens):
            lines.append("stack: " + crumbs(screens))
        case .tabs(let tabs, let selected):
            let names = tabs.enumerated().map { index, tab in
                let name = tab.first.map { title($0.entry) } ?? "(empty)"
                return index == selected ? "[" + name + "]" : name
            }
            lines.append("tabs: " + names.joined(separator: " | "))
            lines.append("stack: " + crumbs(tabs[selected]))
        }
        for (index, modal) in modals.enumerated() { lines.append("modal \(index + 1): " + crumbs(modal)) }
        if let popover { lines.append("popover: " + title(popover.entry)) }
        if let visible = snapshot.visible { lines += screen(visible).map { "  " + $0 } }
        return lines
    }

    private static func describe(_ change: NavigationChange) -> String {
        switch change {
        case .pushed(let entry, _): return "pushed \(entry.url)"
        case .popped(let count, _): return "popped \(count)"
        case .presentedModal(let entry): return "presented \(entry.url)"
        case .dismissedModal: return "dismissed a modal"
        case .showedPopover(let entry): return "showed the popover \(entry.url)"
        case .closedPopover: return "closed the popover"
        case .selectedTab(let index): return "selected tab \(index + 1)"
        case .replacedRoot: return "replaced the root"
        case .loaded(let entry, _): return "made \(entry.url)"
        case .replacedTree(let why): return "replaced the tree (\(why))"
        }
    }
}

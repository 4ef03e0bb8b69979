import OrderedCollections
import Wayfinder

/// A navigation event as the event log shows it: the change's kind (`pushed`, `popped`,
/// `presented`, `dismissed`, `showed-popover`, `closed-popover`, `selected`, `replaced-root`,
/// `made`, `replaced-tree`), the entry's URL and where it happened when the change has them,
/// and the line the devtools print. Stacks are named as people count them: `tab 1`, `modal 1`.
enum HeardChange {
    static func json(_ event: NavigationEvent) -> Value {
        var fields = OrderedDictionary<String, Value>()
        let text: String
        switch event.change {
        case .pushed(let entry, let stack):
            fields["change"] = "pushed"
            fields["url"] = .string(entry.url)
            fields["where"] = .string(name(of: stack))
            text = "pushed \(entry.url) onto \(name(of: stack))"
        case .popped(let count, let stack):
            fields["change"] = "popped"
            fields["where"] = .string(name(of: stack))
            fields["count"] = .int(Int64(count))
            text = "popped \(count == 1 ? "1 screen" : "\(count) screens") from \(name(of: stack))"
        case .presentedModal(let entry):
            fields["change"] = "presented"
            fields["url"] = .string(entry.url)
            fields["where"] = .string(name(of: .modal(event.tree.modals.count - 1)))
            text = "presented \(entry.url) as \(name(of: .modal(event.tree.modals.count - 1)))"
        case .dismissedModal:
            fields["change"] = "dismissed"
            fields["where"] = .string(name(of: .modal(event.tree.modals.count)))
            text = "dismissed \(name(of: .modal(event.tree.modals.count)))"
        case .showedPopover(let entry):
            fields["change"] = "showed-popover"
            fields["url"] = .string(entry.url)
            text = "showed \(entry.url) as the popover"
        case .closedPopover:
            fields["change"] = "closed-popover"
            text = "closed the popover"
        case .selectedTab(let index):
            fields["change"] = "selected"
            fields["where"] = .string(name(of: .tab(index)))
            text = "selected \(name(of: .tab(index)))"
        case .replacedRoot(let root):
            fields["change"] = "replaced-root"
            switch root {
            case .stack(let entries): text = "set the root to one stack of \(entries.count)"
            case .tabs(let tabs, _): text = "set the root to \(tabs.count) tabs"
            }
        case .loaded(let entry, let location):
            fields["change"] = "made"
            fields["url"] = .string(entry.url)
            fields["where"] = .string(name(of: location))
            text = "made \(entry.url) (\(name(of: location)))"
        case .replacedTree(let replacement):
            fields["change"] = "replaced-tree"
            fields["why"] = .string(why(replacement))
            text = "replaced the whole tree (\(why(replacement)))"
        }
        fields["text"] = .string(text)
        return .map(fields)
    }

    static func name(of stack: NavigationSnapshot.StackLocation) -> String {
        switch stack {
        case .root: return "the root stack"
        case .tab(let index): return "tab \(index + 1)"
        case .modal(let index): return "modal \(index + 1)"
        }
    }

    static func name(of location: NavigationSnapshot.Location) -> String {
        switch location {
        case .root(let index): return "the root stack, screen \(index + 1)"
        case .tab(let tab, let index): return "tab \(tab + 1), screen \(index + 1)"
        case .modal(let modal, let index): return "modal \(modal + 1), screen \(index + 1)"
        case .popover: return "the popover"
        }
    }

    private static func why(_ replacement: NavigationChange.Replacement) -> String {
        switch replacement {
        case .restore: return "restore"
        case .reload: return "reload"
        case .relaunch: return "relaunch"
        }
    }
}

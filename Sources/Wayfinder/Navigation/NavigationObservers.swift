/// Names an observer added with `Navigator.observe`, to remove it with
/// `Navigator.removeObserver`. Unique in the process: a token of another navigator removes
/// nothing here.
public struct NavigationObserverToken: Sendable, Hashable {
    let number: Int
}

/// A navigator's observers, each with the tree as it last heard of it: the events an observer
/// is owed are the changes from that tree to the one committed now. An observer added while an
/// operation is under way starts from the tree committed then, so it never hears of a change
/// twice or of one it already saw in `Navigator.tree`.
struct NavigationObservers {
    private struct Registration {
        let token: NavigationObserverToken
        let notify: (NavigationEvent) -> Void
        var seen: NavigationSnapshot
        /// `replacements` when it last heard: less than now means the tree was replaced since.
        var seenReplacements: Int
    }

    /// One observer's events, to be delivered in order.
    struct Delivery {
        let token: NavigationObserverToken
        let notify: (NavigationEvent) -> Void
        let events: [NavigationEvent]
    }

    private var registrations: [Registration] = []
    /// How many times the tree was replaced whole while observed, and why the last time.
    private var replacements = 0
    private var lastReplacement = NavigationChange.Replacement.restore

    var isEmpty: Bool { registrations.isEmpty }

    mutating func add(_ notify: @escaping (NavigationEvent) -> Void, seeing tree: NavigationSnapshot) -> NavigationObserverToken {
        let token = NavigationObserverToken(number: UniqueNumber.next())
        registrations.append(Registration(token: token, notify: notify, seen: tree, seenReplacements: replacements))
        return token
    }

    mutating func remove(_ token: NavigationObserverToken) -> Bool {
        guard let index = registrations.firstIndex(where: { $0.token == token }) else { return false }
        registrations.remove(at: index)
        return true
    }

    func contains(_ token: NavigationObserverToken) -> Bool {
        registrations.contains { $0.token == token }
    }

    /// The tree was replaced whole: observers that have not heard since are told so, not what
    /// changed entry by entry.
    mutating func noteReplacement(_ replacement: NavigationChange.Replacement) {
        replacements += 1
        lastReplacement = replacement
    }

    /// What each observer is owed up to `now`, in the order they were added; every observer
    /// counts as having heard it from here on.
    mutating func deliveries(now: NavigationSnapshot) -> [Delivery] {
        var deliveries: [Delivery] = []
        // Observers almost always share what they saw: the events are worked out once for it.
        var last: (seen: NavigationSnapshot, replaced: Bool, events: [NavigationEvent])?
        for index in registrations.indices {
            let registration = registrations[index]
            let replaced = registration.seenReplacements != replacements
            let events: [NavigationEvent]
            if let last, last.replaced == replaced, last.seen == registration.seen {
                events = last.events
            } else {
                events = Self.events(from: registration.seen, to: now, replacedBy: replaced ? lastReplacement : nil)
                last = (registration.seen, replaced, events)
            }
            registrations[index].seen = now
            registrations[index].seenReplacements = replacements
            if !events.isEmpty { deliveries.append(Delivery(token: registration.token, notify: registration.notify, events: events)) }
        }
        return deliveries
    }

    /// The events from `seen` to `now`: none when they are equal, one `.replacedTree` when the
    /// tree was replaced, else one per change, each with the tree after it.
    static func events(from seen: NavigationSnapshot, to now: NavigationSnapshot,
                       replacedBy replacement: NavigationChange.Replacement?) -> [NavigationEvent] {
        guard seen != now else { return [] }
        if let replacement { return [NavigationEvent(change: .replacedTree(replacement), tree: now)] }
        var tree = seen
        let events = seen.changes(to: now).map { change in
            tree.apply(change)
            return NavigationEvent(change: change, tree: tree)
        }
        assert(tree == now, "the changes from one snapshot to another do not lead there")
        return events
    }
}

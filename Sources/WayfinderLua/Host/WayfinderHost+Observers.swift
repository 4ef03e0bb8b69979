import Wayfinder

/// Observers of a host: each hears every committed change to the navigation tree once, as typed
/// events with the tree after it (docs/events.md), across reloads and relaunches. Each observer
/// is an observer of the running app's navigator, moved to the new app's when the app is
/// replaced, and told then that the whole tree was replaced.
extension WayfinderHost {
    /// Names an observer added with ``observe(_:)``, to remove it with ``removeObserver(_:)``.
    public struct ObserverToken: Sendable, Hashable {
        let number: Int
    }

    /// One observer, and its registration with the running app's navigator.
    struct Observer {
        let token: ObserverToken
        let notify: (NavigationEvent) -> Void
        var registration: NavigationObserverToken
    }

    /// Calls `observer` with every change committed from now on, as typed events, each with the
    /// tree after it, until the observer is removed: what the app's navigator tells
    /// (`Navigator.observe`, docs/events.md: an operation's changes when it has finished, none for
    /// a failed one), and `.replacedTree(.reload)` or `.replacedTree(.relaunch)` when a reload or
    /// a relaunch replaced the app. A presenter that applies them to its own views stays in step
    /// with ``tree``. While observers are told, navigating fails with `NavigationError.busy`.
    @discardableResult
    public func observe(_ observer: @escaping (NavigationEvent) -> Void) -> ObserverToken {
        exclusivelyOrStop("add an observer") { adding(observer) }
    }

    func adding(_ observer: @escaping (NavigationEvent) -> Void) -> ObserverToken {
        nextObserverNumber += 1
        let token = ObserverToken(number: nextObserverNumber)
        observers.append(Observer(token: token, notify: observer, registration: current.navigator.observe(observer)))
        return token
    }

    /// Stops calling the observer `token` names, from its next event on. False when it is not
    /// observing this host.
    @discardableResult
    public func removeObserver(_ token: ObserverToken) -> Bool {
        exclusivelyOrStop("remove an observer") { removing(token) }
    }

    func removing(_ token: ObserverToken) -> Bool {
        guard let index = observers.firstIndex(where: { $0.token == token }) else { return false }
        current.navigator.removeObserver(observers[index].registration)
        observers.remove(at: index)
        return true
    }

    /// Moves the observers from the app being replaced to `fresh`'s navigator, and tells them the
    /// whole tree was replaced, with the tree `fresh` shows.
    func moveObservers(from old: AppHost, to fresh: AppHost, because replacement: NavigationChange.Replacement) {
        for index in observers.indices {
            old.navigator.removeObserver(observers[index].registration)
            observers[index].registration = fresh.navigator.observe(observers[index].notify)
        }
        let event = NavigationEvent(change: .replacedTree(replacement), tree: NavigationSnapshot(fresh.navigator.tree))
        let told = observers
        telling = true
        defer { telling = false }
        for observer in told where observers.contains(where: { $0.token == observer.token }) {
            observer.notify(event)
        }
    }

    /// Refuses a navigation asked for while observers are told of a replaced app, as the
    /// navigator refuses one while it tells them of a change.
    func checkNotTelling(_ operation: String) throws {
        if telling { throw NavigationError.busy(operation, during: "telling observers of a change") }
    }
}

import Wayfinder

/// How the session learns that the navigation tree changed: it observes the host
/// (`WayfinderHost.observe`, docs/events.md), which tells every committed change once, a
/// reload's and a restore's as `.replacedTree`. The events wait here until the session, once
/// its call into the app is over, takes them for the event log, the saved state and the page.
/// A failed operation sends none, so a change not heard did not happen.
final class ChangeFeed {
    private var heard: [NavigationEvent] = []

    /// The observer the session hands the host: it only keeps the event (an observer may not
    /// navigate).
    func hear(_ event: NavigationEvent) {
        heard.append(event)
    }

    /// The events heard since the last call, oldest first.
    func take() -> [NavigationEvent] {
        defer { heard = [] }
        return heard
    }
}

import Foundation

/// An open a guard stopped, kept until the guard lets it through (docs/lua-api.md, "Guards"):
/// the navigator asks the guard again after every change it commits, and `Navigator.resume()`
/// asks at once. One at a time: the newest stopped open replaces an older one. It is saved with
/// the navigation state and expires (`Navigator.pendingExpiration`).
public struct PendingOpen {
    /// The open as it was asked, its presentation and whether it came from outside included.
    public var request: NavigationRequest
    /// When it was stopped, by the navigator's clock.
    public var since: Date

    /// An open of `request` held since `since`.
    public init(request: NavigationRequest, since: Date) {
        self.request = request
        self.since = since
    }

    /// Whether it is older than `expiration` seconds at `now` (0: it never expires). One stopped
    /// in the future (the clock went back) has no age to trust and counts as expired.
    public func isExpired(expiration: Double, now: Date) -> Bool {
        guard expiration > 0 else { return false }
        let age = now.timeIntervalSince(since)
        return age > expiration || age < 0
    }
}

/// What `Navigator.resume()` found.
public enum ResumeOutcome<Controller: AnyObject> {
    /// No open was waiting (or the one waiting had expired, and was dropped).
    case nothingPending
    /// Its guard still stops it; it goes on waiting.
    case waiting
    /// It opened: the controller it opened, nil for an action or an external URL.
    case opened(Controller?)
}

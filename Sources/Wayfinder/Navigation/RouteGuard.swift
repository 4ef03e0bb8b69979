/// What a route's guard answers when its URL is about to open (docs/lua-api.md, "Guards"): go
/// ahead, or stop, with a URL to open instead (the sign-in screen) or none. A stopped URL is kept
/// as the navigator's `pendingOpen` and opens by itself once its guard lets it.
public enum GuardVerdict: Equatable, Sendable {
    /// The open goes on.
    case pass
    /// The open stops; the URL to open in its place, if any.
    case stop(instead: String?)
}

/// A guard stopped an open: thrown through the open's working tree, so nothing of it is kept,
/// and caught where the open began.
struct GuardStop: Error {
    /// The URL whose guard stopped it (the one opened, a redirect of it, or a parent).
    let url: String
    let instead: String?
}

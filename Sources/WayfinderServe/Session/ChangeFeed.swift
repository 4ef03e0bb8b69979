import WayfinderLua

/// How the session learns that the navigation tree changed, so it pushes the new tree to the
/// page once per change. Scripts run only when the session calls into the app (an open, back,
/// a render, a reload), so the session looks after each of its own calls: the navigator's
/// change count moved, or the app itself was replaced (a reload), means a new tree. This is
/// the one place that knows how changes are found.
struct ChangeFeed {
    private var host: ObjectIdentifier?
    private var count = 0

    /// Whether the tree of `host` changed since the last look.
    mutating func changed(_ host: AppHost) -> Bool {
        let identity = ObjectIdentifier(host)
        let now = host.navigator.changeCount
        defer { (self.host, count) = (identity, now) }
        return identity != self.host || now != count
    }
}

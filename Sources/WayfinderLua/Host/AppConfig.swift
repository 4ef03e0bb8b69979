import Wayfinder

/// What `wf.app { ... }` declared: the app's name, what it shows at launch, and how its
/// navigation state persists.
public struct AppConfig: Sendable, Equatable {
    /// The app's name: what its state file is named for; nil when `wf.app` gives none.
    public var name: String?
    /// The tabs' URLs, in order; empty for an app without tabs.
    public var tabs: [String]
    /// Fixed titles of tabs (`tabs = { { url = ..., title = ... } }`), by the tab's URL.
    public var tabTitles: [String: String] = [:]
    /// The URL opened at launch when there are no tabs.
    public var root: String?
    /// What is saved of the navigation state (docs/persistence.md).
    public var persistence: PersistenceMode
    /// Seconds after which saved state is not restored; 0 means never.
    public var expiration: Double
    /// Seconds an open a guard stopped waits before it is dropped; 0 means for ever.
    public var pendingExpiration: Double = 3600
    /// The app's version, recorded in every state it saves; a state of an older version is
    /// migrated before it is restored (docs/persistence.md, "Versions and migrations").
    public var version = 1
    /// Web links read as app URLs (`link_prefixes`, docs/lua-api.md, "Web links onto app routes").
    public var linkPrefixes = LinkPrefixes()
    /// Where the app's `migrate` function is defined (`file:line`), nil when it has none.
    public var migration: String?

    /// A configuration described by hand (`wf.app` makes the app's).
    public init(name: String? = nil, tabs: [String] = [], root: String? = nil, persistence: PersistenceMode = .all, expiration: Double = 0) {
        self.name = name
        self.tabs = tabs
        self.root = root
        self.persistence = persistence
        self.expiration = expiration
    }
}

/// How the navigator presents a route's controller (docs/lua-api.md, "Modes").
public enum NavigationMode: String, Sendable, CaseIterable {
    case create, share, modal, popover, none
}

/// What `map:from(pattern, target, options)` says besides the pattern and the target.
public struct RouteOptions: Sendable, Hashable {
    public var mode: NavigationMode
    /// A URL opened first, so the route's controller sits above it.
    public var parent: String?
    /// The constructor to call, in selector spelling (`initWithFood:`); overrides deduction.
    public var selector: String?
    public var transition: String?
    /// The route may be opened from outside the app.
    public var external: Bool
    public var name: String?

    public init(mode: NavigationMode = .create, parent: String? = nil, selector: String? = nil,
                transition: String? = nil, external: Bool = false, name: String? = nil) {
        self.mode = mode
        self.parent = parent
        self.selector = selector
        self.transition = transition
        self.external = external
        self.name = name
    }
}

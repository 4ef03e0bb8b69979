import OrderedCollections

/// What `open` is asked: a URL, plus what an action table can add (docs/lua-api.md's
/// `{ url, query, parent, state, animated, transition }`).
public struct NavigationRequest {
    public var url: String
    /// Values handed to the constructor with the URL's own query (they may be any value,
    /// handles included, so they are not written into the URL).
    public var query: OrderedDictionary<String, Value>
    /// Opened first, overriding the route's `parent` option.
    public var parent: String?
    public var animated: Bool
    public var transition: String?
    /// Saved state handed to the new controller.
    public var state: Value?
    /// Whatever the host hands its factory along with the request (the Lua host: the action
    /// table itself, so query values keep their identity). The navigator does not look at it.
    public var payload: Value?
    /// The controller the new screen opens over, set by the navigator just before it asks its
    /// factory: the visible controller of the tree being changed, so a screen opened with a
    /// `parent` sees that parent (not the screen that was visible before the open). An action
    /// sees the visible controller once its parents are committed.
    public var opener: AnyObject?

    public init(url: String, query: OrderedDictionary<String, Value> = [:], parent: String? = nil,
                animated: Bool = true, transition: String? = nil, state: Value? = nil, payload: Value? = nil) {
        self.url = url
        self.query = query
        self.parent = parent
        self.animated = animated
        self.transition = transition
        self.state = state
        self.payload = payload
    }
}

/// The app's say in navigation (Three20's TTNavigatorDelegate). Every hook is optional; a hook
/// that throws fails the open it was asked about.
public struct NavigatorDelegate<Controller: AnyObject> {
    /// false vetoes the open.
    public var shouldOpen: ((String) throws -> Bool)?
    /// Another URL redirects, nil vetoes, the same URL goes ahead.
    public var urlToOpen: ((String) throws -> String?)?
    public var willOpen: ((String, Controller) throws -> Void)?
    public var didNotMatch: ((String) throws -> Void)?
    /// A URL whose scheme no route uses (`tel:`, `maps:`) goes here and nothing is presented.
    public var openExternal: ((String) throws -> Void)?

    public init() {}
}

/// How controllers come to be and learn what happens to them. The navigator calls these; it
/// knows nothing of what a controller is.
public struct ControllerFactory<Target, Controller: AnyObject> {
    /// Makes the controller for a match; nil is allowed only for mode `none`.
    public var make: (RouteMatch<Target>, NavigationRequest) throws -> Controller?
    /// A fragment URL whose base URL is already shown goes to that controller.
    public var handleFragment: ((Controller, RouteMatch<Target>) throws -> Void)?
    public var appear: ((Controller) -> Void)?
    public var disappear: ((Controller) -> Void)?
    /// A controller's entry left the tree (popped, dismissed, replaced): whatever the app keeps for
    /// it (observers it owns) can go.
    public var leave: ((Controller) -> Void)?

    public init(make: @escaping (RouteMatch<Target>, NavigationRequest) throws -> Controller?,
                handleFragment: ((Controller, RouteMatch<Target>) throws -> Void)? = nil,
                appear: ((Controller) -> Void)? = nil, disappear: ((Controller) -> Void)? = nil,
                leave: ((Controller) -> Void)? = nil) {
        self.make = make
        self.handleFragment = handleFragment
        self.appear = appear
        self.disappear = disappear
        self.leave = leave
    }
}

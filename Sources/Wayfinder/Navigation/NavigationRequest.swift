import OrderedCollections

/// What `open` is asked: a URL, plus what an action table can add (its query, parent and state;
/// the host keeps the table itself as the payload; docs/lua-api.md, "The navigator").
public struct NavigationRequest {
    /// The URL to open.
    public var url: String
    /// Values handed to the constructor with the URL's own query (they may be any value,
    /// handles included, so they are not written into the URL).
    public var query: OrderedDictionary<String, Value>
    /// Opened first, overriding the route's `parent` option.
    public var parent: String?
    /// Saved state handed to the new controller.
    public var state: Value?
    /// What the open does to the tree around its screen; nil leaves it to the route.
    public var presentation: Presentation?
    /// The URL came from outside the app (a notification, a web page): only routes marked
    /// `external` open (`Navigator.handleLink` sets it).
    public internal(set) var fromOutside = false
    /// Whatever the host hands its factory along with the request (the Lua host: the action
    /// table itself, so query values keep their identity). The navigator does not look at it.
    public var payload: Value?
    /// The controller the new screen opens over, set by the navigator just before it asks its
    /// factory: the visible controller of the tree being changed, so a screen opened with a
    /// `parent` sees that parent (not the screen that was visible before the open). An action
    /// sees the visible controller once its parents are committed.
    public var opener: AnyObject?

    /// A request to open `url`, with the query, parent, state, presentation and payload it carries.
    public init(url: String, query: OrderedDictionary<String, Value> = [:], parent: String? = nil,
                state: Value? = nil, presentation: Presentation? = nil, payload: Value? = nil) {
        self.url = url
        self.query = query
        self.parent = parent
        self.state = state
        self.presentation = presentation
        self.payload = payload
    }
}

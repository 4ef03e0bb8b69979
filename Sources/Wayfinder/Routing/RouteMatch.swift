import OrderedCollections

/// The answer to "which route does this URL open, with which values".
public struct RouteMatch<Target> {
    /// The route that matched.
    public let route: Route<Target>
    /// The URL it matched.
    public let url: NavigationURL
    /// Named params in pattern order, typed. Query and fragment params that the URL did not supply
    /// are absent.
    public let params: OrderedDictionary<String, Value>
    /// The URL's query pairs that no pattern component consumed.
    public let query: OrderedDictionary<String, Value>
    /// The URL's fragment, decoded, if it has one.
    public let fragment: String?

    @usableFromInline
    init(route: Route<Target>, url: NavigationURL, params: OrderedDictionary<String, Value>,
         query: OrderedDictionary<String, Value>, fragment: String?) {
        self.route = route
        self.url = url
        self.params = params
        self.query = query
        self.fragment = fragment
    }
}

/// A match, or the reason there is none (a malformed URL, or no route).
public enum MatchResult<Target> {
    /// A route matched.
    case matched(RouteMatch<Target>)
    /// No route matched: why.
    case noMatch(reason: String)

    /// The reason given when no route matches at all.
    public static var noRouteReason: String { "no route matches" }

    /// The match, if there is one.
    public var match: RouteMatch<Target>? {
        if case .matched(let m) = self { return m }
        return nil
    }
}

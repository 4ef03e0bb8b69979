import OrderedCollections

/// The answer to "which route does this URL open, with which values".
public struct RouteMatch<Target> {
    public let route: Route<Target>
    public let url: NavigationURL
    /// Named params in pattern order, typed. Query and fragment params that the URL did not supply
    /// are absent.
    public let params: OrderedDictionary<String, Value>
    /// The URL's query pairs that no pattern component consumed.
    public let query: OrderedDictionary<String, Value>
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
    case matched(RouteMatch<Target>)
    case noMatch(reason: String)

    public static var noRouteReason: String { "no route matches" }

    public var match: RouteMatch<Target>? {
        if case .matched(let m) = self { return m }
        return nil
    }
}

import OrderedCollections
import Wayfinder

/// One URL's answer as `wayfinder match` reports it.
public struct MatchReport {
    /// The URL asked about.
    public let url: String
    /// The route that matched, if one did.
    public let match: RouteMatch<LuaTarget>?
    /// Why there is no match.
    public let reason: String?
    /// The constructor `open` would call (docs/lua-api.md's deduction); nil for a function target or a
    /// class with no constructor.
    public let method: String?
    /// The route's selector, when it names one.
    public let selector: String?
    /// True when `open` would hand the URL outside the app (no route uses its scheme).
    public let external: Bool
    /// The moves `open` follows from `url` to the route matched (`wf.map:moved`), in order.
    public private(set) var moves: [RouteMoves.Hop] = []

    /// The URL the route matched: where the moves led, else `url`.
    public var matchedURL: String { moves.last?.to ?? url }

    /// The answer for a URL that `match` matched, after the moves it followed.
    public init(url: String, match: RouteMatch<LuaTarget>, method: String?, selector: String?, moves: [RouteMoves.Hop] = []) {
        self.url = url
        self.match = match
        self.reason = nil
        self.method = method
        self.selector = selector
        self.external = false
        self.moves = moves
    }

    /// The answer for a URL that no route matched, saying why.
    public init(url: String, failure: String) {
        self.url = url
        self.match = nil
        self.reason = failure
        self.method = nil
        self.selector = nil
        self.external = false
    }

    /// The answer for a URL that `open` would hand outside the app, its `scheme` used by no route.
    public init(external url: String, scheme: String) {
        self.url = url
        self.match = nil
        self.reason = "no route uses the scheme '\(scheme)', so open hands it outside the app"
        self.method = nil
        self.selector = nil
        self.external = true
    }

    /// The `--json` object, keys in the documented order.
    public var json: Value {
        guard let match else {
            return ["url": .string(url), "matched": false, "external": .bool(external), "reason": .string(reason ?? MatchResult<LuaTarget>.noRouteReason)]
        }
        var fields: OrderedDictionary<String, Value> = [
            "url": .string(url), "matched": true, "pattern": .string(match.route.pattern.text),
            "mode": .string(match.route.options.mode.rawValue),
            "selector": selector.map(Value.string) ?? .null, "method": method.map(Value.string) ?? .null,
            "params": .map(match.params.mapValues(\.plainForJSON)), "query": .map(match.query.mapValues(\.plainForJSON)),
            "fragment": match.fragment.map(Value.string) ?? .null,
        ]
        if !moves.isEmpty { fields["moved"] = .array(moves.map(\.json)) }
        return .map(fields)
    }
}

/// One route as `wayfinder routes` lists it.
public struct RouteReport {
    /// The route's pattern.
    public let pattern: Pattern
    /// How the route opens its screen.
    public let options: RouteOptions
    /// What the route opens: the class or function, as the app names it.
    public let target: String
    /// The constructor `open` would call, when there is one.
    public let method: String?
    /// The route's selector, when it names one.
    public let selector: String?
    /// The route has a `guard`.
    public let guarded: Bool

    /// The `--json` object (`RouteDescription`'s rendering).
    public var json: Value { RouteDescription(self).json }
}

extension Value {
    /// Handles (values a script's type function may bind) print by kind, since JSON cannot hold them.
    var plainForJSON: Value {
        switch self {
        case .handle(let h): return .string("<\(h.kind)>")
        case .array(let list): return .array(list.map(\.plainForJSON))
        case .map(let map): return .map(map.mapValues(\.plainForJSON))
        default: return self
        }
    }
}

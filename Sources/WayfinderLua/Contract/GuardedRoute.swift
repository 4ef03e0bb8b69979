import OrderedCollections
import Wayfinder

/// The route a route's `guard` and its `parent` function are handed (docs/lua-api.md, "Guards"),
/// declared and built once: the match's URL, pattern, params, query and fragment, and for a guard
/// `link`, true for a link from outside. The LuaLS definitions' `wayfinder.guarded_route` must
/// list these fields (a test compares the two).
enum GuardedRoute: String, CrossingRecord {
    case url, pattern, params, query, fragment, link

    /// The record of `match` opened at `url`; `link` only when given (a guard's), `fragment`
    /// only when the URL has one.
    static func value(of match: RouteMatch<LuaTarget>, url: String, link: Bool?) -> Value {
        var record = OrderedDictionary<String, Value>(minimumCapacity: allCases.count)
        for field in allCases {
            switch field {
            case .url: record[field.rawValue] = .string(url)
            case .pattern: record[field.rawValue] = .string(match.route.pattern.text)
            case .params: record[field.rawValue] = .map(match.params)
            case .query: record[field.rawValue] = .map(match.query)
            case .fragment: record[field.rawValue] = match.fragment.map(Value.string)
            case .link: record[field.rawValue] = link.map(Value.bool)
            }
        }
        return .map(record)
    }
}

import Wayfinder

/// A route's `parent = function(route) ... end` (docs/lua-api.md, "Back stacks from a link"):
/// asked at every open of the route for the URL to open beneath it, given the route as a guard
/// gets it (`GuardedRoute`, without `link`). It answers a URL, or nil for no parent; any
/// other answer is an error naming the function. Routes without one use their `parent` option,
/// filled from the URL's params.
extension LuaNavigatorBridge {
    func parent(of match: RouteMatch<LuaTarget>) throws -> String? {
        guard let function = match.route.target.parentFunction else { return try navigator.filledParent(of: match) }
        switch try state.call(function.function, [GuardedRoute.value(of: match, url: match.url.text, link: nil)]).first ?? .null {
        case .null: return nil
        case .string(let url): return url
        case let other:
            throw ScriptError(kind: .runtime, message: "the parent function of '\(match.route.pattern.text)' (\(function.definition)) returned "
                + "\(other.typeDescription); it must return a URL string or nil")
        }
    }
}

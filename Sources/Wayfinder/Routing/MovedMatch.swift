/// Which route a URL opens as `open` finds it, moves followed: the route that matches it (other
/// than `*`), else the route its move leads to, with the hops that took it there. The tools that
/// explain routing (`wayfinder match`, `wf.map:match`, the devtools) answer with it, so they show
/// the rewrite an open makes.
public struct MovedMatch<Target> {
    /// What the route table answered for ``url``: the route and its params, or why none matched.
    public let result: MatchResult<Target>
    /// The moves followed, in order; empty when the URL did not move.
    public let hops: [RouteMoves.Hop]

    /// The URL the route matched: where the moves led, else the one asked about.
    public let url: String

    /// Matches `url` as `open` would: a live route first, else the moves traced to where they
    /// lead. Throws what a param type's conversion throws.
    public init(_ url: String, routes: RouteTable<Target>, moves: RouteMoves) throws {
        let direct = try routes.match(url)
        if case .matched(let found) = direct, !found.route.pattern.isDefault {
            (result, hops, self.url) = (direct, [], url)
            return
        }
        let (rewrite, hops) = try moves.trace(url)
        switch rewrite {
        case .moved(let target):
            (result, self.hops, self.url) = (try routes.match(target), hops, target)
        case .failed(let why):
            if case .noMatch(let reason) = direct {
                (result, self.hops, self.url) = (.noMatch(reason: reason + "; " + why), [], url)
            } else {
                (result, self.hops, self.url) = (direct, [], url)
            }
        case .unmoved:
            (result, self.hops, self.url) = (direct, [], url)
        }
    }
}

extension RouteMoves.Hop {
    /// The hop as JSON and Lua see it: the URL before and after, and the move's two patterns.
    public var json: Value {
        ["from": .string(from), "to": .string(to), "old": .string(move.old.text), "new": .string(move.new.text)]
    }

    /// `FROM -> TO (moved OLD -> NEW)`, for a person.
    public var text: String {
        "\(from) -> \(to)  (moved '\(move.old.text)' -> '\(move.new.text)')"
    }
}

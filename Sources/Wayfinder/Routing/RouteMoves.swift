/// Routes that were renamed (docs/matching.md, "Moved routes"). `add(from:to:)` says that the URLs
/// of an old pattern now live at a new one; `rewrite` turns such a URL into its new form: the
/// values the old pattern bound fill the new pattern by name, the query pairs the old pattern did
/// not consume are kept, and so is a fragment it did not consume. A URL is only rewritten when no
/// current route matches it but `*`, so a live route always wins. The navigator rewrites saved URLs
/// at restore and URLs it is asked to open, so old URLs kept in data and links go on working;
/// this one function is how anything else (a link from outside) rewrites one too.
public final class RouteMoves {
    /// One declared move: URLs of the old pattern now live at the new one.
    public struct Move: Sendable, Equatable {
        /// The pattern the URLs had; it matches only URLs no live route takes.
        public let old: Pattern
        /// The pattern they have now, filled with the old pattern's values by param name.
        public let new: Pattern
    }

    /// What `rewrite` found.
    public enum Rewrite: Equatable, Sendable {
        /// The URL stays as it is: a current route (other than `*`) matches it, or no move does.
        case unmoved
        /// The URL it moved to, every move on the way followed; a current route matches it.
        case moved(String)
        /// A move matches the URL but cannot take it anywhere a route matches; the reason says why.
        case failed(String)
    }

    /// Moves followed for one URL before giving up (declarations cannot form a cycle, but chains
    /// of moves through overlapping patterns are cut here all the same).
    public static var maximumHops: Int { 8 }

    /// Old patterns, each leading to its move: matching an old URL is the route table's matching.
    private let table = RouteTable<Move>()
    private let live: LiveRoutes

    /// What moves need of the app's own route table, without being generic over its target.
    private struct LiveRoutes {
        let parse: (String) throws(PatternError) -> Pattern
        let generatorPattern: (String) throws(PatternError) -> Pattern
        let convert: (String, String) throws -> Value?
        let url: (Pattern, (String) throws -> Value?) throws -> String
        /// Whether a route other than `*` matches the URL.
        let matches: (NavigationURL) throws -> Bool
        /// A live route's pattern of the same shape (the same URLs), if any.
        let sharingShape: (Pattern) -> Pattern?
    }

    /// No moves yet, over the app's route table: a move is only followed for a URL that no live
    /// route of `routes` (other than `*`) matches, and must lead to one that does.
    public init<Target>(routes: RouteTable<Target>) {
        live = LiveRoutes(
            parse: { text throws(PatternError) in try routes.parse(text) },
            generatorPattern: { text throws(PatternError) in try routes.generatorPattern(text) },
            convert: { text, type in try routes.convert(text, as: type) },
            url: { pattern, field in try routes.url(for: pattern, field: field) },
            matches: { url in
                guard case .matched(let match) = try routes.match(url) else { return false }
                return !match.route.pattern.isDefault
            },
            sharingShape: { pattern in routes.index.patternSharingShape(with: pattern) })
    }

    /// Whether no move is declared, so every URL stays as it is (and rewriting costs nothing).
    public var isEmpty: Bool { table.count == 0 }

    /// Every move, the most specific old pattern first.
    public var moves: [Move] { table.routes.map(\.target) }

    /// Declares that URLs of `oldText` now live at `newText`. The same old pattern again replaces
    /// its move. Refused: an old pattern that is `*` or has the shape of a live route (its URLs
    /// would never move), a new pattern that is `*`, has an anonymous param or names a param the
    /// old one does not bind, and a move that closes a cycle of moves.
    public func add(from oldText: String, to newText: String) throws(PatternError) {
        let old = try live.parse(oldText)
        guard !old.isDefault else { throw PatternError(pattern: oldText, reason: "'*' matches every URL; it cannot move") }
        let new = try live.generatorPattern(newText)
        let unbound = new.paramNames.filter { !old.paramNames.contains($0) }
        guard unbound.isEmpty else {
            throw PatternError(pattern: newText, reason: "names " + unbound.map { "'\($0)'" }.joined(separator: ", ")
                + " that the old pattern '\(oldText)' does not bind (params are carried by name)")
        }
        if let route = live.sharingShape(old) {
            throw PatternError(pattern: oldText, reason: "is the live route '\(route.text)', so its URLs would never move (remove the route, or the move)")
        }
        let others = moves.filter { $0.old.text != oldText }
        if let cycle = Self.cycle(through: Move(old: old, new: new), others: others) {
            throw PatternError(pattern: oldText, reason: "the moves would go round in a cycle: " + cycle.map { "'\($0)'" }.joined(separator: " -> "))
        }
        // The old pattern's types are the live table's, looked up at each match, so a type a
        // script registers again is the one moves use too.
        for name in Set(old.orderedComponents.compactMap(\.param?.type)) where !ParamType.builtinNames.contains(name) {
            try table.registerType(name) { [live] text in try live.convert(text, name) }
        }
        try table.add(oldText, target: Move(old: old, new: new))
    }

    /// The move whose old pattern has the shape of `pattern` (so `pattern` may not become a live
    /// route while the move stands), if any.
    public func move(sharingShapeWith pattern: Pattern) -> Move? {
        table.index.patternSharingShape(with: pattern).flatMap { table.route(for: $0.text)?.target }
    }

    /// The URL `text` moved to (docs/matching.md, "Moved routes").
    public func rewrite(_ text: String) throws -> Rewrite {
        guard !isEmpty else { return .unmoved }
        let url: NavigationURL
        do { url = try NavigationURL(text) } catch { return .unmoved }
        return try rewrite(url)
    }

    /// The URL `url` moved to, for a URL already parsed.
    public func rewrite(_ url: NavigationURL) throws -> Rewrite {
        try trace(url).rewrite
    }

    /// One step of a rewrite: the URL `from` became `to` by `move`.
    public struct Hop: Sendable, Equatable {
        /// The URL before the hop.
        public let from: String
        /// The URL the move made of it.
        public let to: String
        /// The move that matched ``from``.
        public let move: Move
    }

    /// What `rewrite` found, with the hops it took on the way (for tools that explain routing).
    public func trace(_ text: String) throws -> (rewrite: Rewrite, hops: [Hop]) {
        guard !isEmpty, let url = try? NavigationURL(text) else { return (.unmoved, []) }
        return try trace(url)
    }

    /// What `rewrite` found for a URL already parsed, with the hops it took.
    public func trace(_ url: NavigationURL) throws -> (rewrite: Rewrite, hops: [Hop]) {
        guard !isEmpty else { return (.unmoved, []) }
        var current = url
        var hops = [Hop]()
        while true {
            if try live.matches(current) { return (hops.isEmpty ? .unmoved : .moved(current.text), hops) }
            guard case .matched(let match) = try table.match(current) else {
                return (hops.isEmpty ? .unmoved : .failed("it moved to '\(current.text)', which no route matches"), hops)
            }
            guard hops.count < Self.maximumHops else {
                return (.failed("moves cut after \(Self.maximumHops) hops: " + (hops.map(\.from) + [current.text]).joined(separator: " -> ")), hops)
            }
            let move = match.route.target
            do {
                let next = try NavigationURL(try moved(match, by: move))
                hops.append(Hop(from: current.text, to: next.text, move: move))
                current = next
            } catch {
                let why = (error as? URLGenerationError)?.reason ?? "\(error)"
                return (.failed("'\(move.old.text)' moved to '\(move.new.text)', but \(why)"), hops)
            }
        }
    }

    /// Whether a move's old pattern uses `scheme`: a URL of that scheme may move into the app,
    /// so it is not handed outside before its move is tried.
    public func usesScheme(_ scheme: String) -> Bool {
        table.usesScheme(scheme)
    }

    /// The new pattern filled with the old one's values; the query pairs and the fragment the old
    /// pattern did not consume follow.
    private func moved(_ match: RouteMatch<Move>, by move: Move) throws -> String {
        let params = match.params
        func bound(_ component: Pattern.Component) -> Bool {
            guard let param = component.param else { return true }
            return param.name.map { params[$0] != nil } ?? false
        }
        // A query or fragment param the old URL did not supply is left out, as it was absent there.
        let new = move.new
        let filled = new.keeping(queryComponents: { bound($0.component) }, fragment: new.fragment.map(bound) ?? false)
        var text = try live.url(filled) { params[$0] }
        var kept = match.query
        for component in new.query { kept.removeValue(forKey: component.key) }
        if !kept.isEmpty { text += (filled.query.isEmpty ? "?" : "&") + (try QueryString.format(kept)) }
        if move.old.fragment == nil, new.fragment == nil, let fragment = match.fragment {
            text += "#" + PercentEncoding.escape(fragment)
        }
        return text
    }

    /// The patterns of a cycle the move would close, if any: a URL the move makes could match an
    /// old pattern whose move leads, in turn, back to a URL of this move's old pattern.
    private static func cycle(through move: Move, others: [Move]) -> [String]? {
        var paths: [(move: Move, trail: [String])] = [(move, [move.old.text, move.new.text])]
        var seen = Set<String>()
        while !paths.isEmpty {
            let (current, trail) = paths.removeFirst()
            if canMatch(made: current.new, old: move.old) { return trail }
            for next in others where !seen.contains(next.old.text) && canMatch(made: current.new, old: next.old) {
                seen.insert(next.old.text)
                paths.append((next, trail + [next.new.text]))
            }
        }
        return nil
    }

    /// Whether a URL filled from `made` could match `old`, judged by scheme, port, host and path:
    /// two literals that differ, or segment counts no catch-all can bridge, rule it out.
    private static func canMatch(made: Pattern, old: Pattern) -> Bool {
        guard made.scheme == old.scheme, made.port == old.port else { return false }
        let madeParts = [made.host] + made.path
        let oldParts = [old.host] + old.path
        let madeOpen = made.path.last?.param?.isCatchAll == true
        let oldOpen = old.path.last?.param?.isCatchAll == true
        switch (madeOpen, oldOpen) {
        case (false, false) where madeParts.count != oldParts.count: return false
        case (true, false) where oldParts.count < madeParts.count: return false
        case (false, true) where madeParts.count < oldParts.count: return false
        default: break
        }
        for (a, b) in zip(madeParts, oldParts) {
            if case .literal(let x) = a, case .literal(let y) = b, x != y { return false }
        }
        return true
    }
}

import OrderedCollections

/// The URL map: patterns compiled into a trie, matched by docs/matching.md's rules.
///
/// Generic over what a route opens, so a Swift app can map URLs to its own controller factories
/// and the Lua host can map them to Lua classes and functions.
public final class RouteTable<Target> {
    /// Patterns, trie and types: everything matching reads, kept out of the generic class.
    @usableFromInline let index = RouteIndex()
    /// What each route opens, by route id (the index's ids); nil where the id is free. Read on
    /// every match without a run-time exclusivity check, as `RouteIndex`'s fields are.
    @exclusivity(unchecked) @usableFromInline var slots: [Slot?] = []
    @usableFromInline var defaultRoute: Route<Target>? {
        didSet { index.hasDefaultRoute = defaultRoute != nil }
    }

    @usableFromInline
    struct Slot {
        @usableFromInline let target: Target
        @usableFromInline let options: RouteOptions.Shared
    }

    /// A table with no routes: every URL is a `noMatch` until routes are added.
    public init() {}

    /// How many routes are registered, `*` included.
    public var count: Int { index.count + (defaultRoute == nil ? 0 : 1) }

    /// Every route, in precedence order (each pattern's own key, every query param counted as
    /// bound), `*` last.
    public var routes: [Route<Target>] {
        var all = index.ids.map(route(id:)).sorted { $0.pattern.precedence > $1.pattern.precedence }
        if let defaultRoute { all.append(defaultRoute) }
        return all
    }

    /// Whether `*` is registered (asked without making the route, which in the navigator's
    /// generic code would look its type up at run time).
    public var hasDefaultRoute: Bool { index.hasDefaultRoute }

    /// Whether some pattern uses `scheme` (lowercased), so the navigator can tell external URLs.
    public func usesScheme(_ scheme: String) -> Bool {
        index.usesScheme(scheme)
    }

    /// The route registered with this pattern text (spelled as it was added, or any text that
    /// parses to the same pattern); nil when there is none or the text is not a pattern.
    public func route(for patternText: String) -> Route<Target>? {
        if patternText == "*" { return defaultRoute }
        guard let pattern = try? parse(patternText) else { return nil }
        return index.find(pattern).sameText.map(route(id:))
    }

    /// The live route with this id.
    private func route(id: Int) -> Route<Target> {
        let slot = slots[id]!
        return Route(pattern: index.pattern(id), target: slot.target, sharedOptions: slot.options)
    }

    // MARK: Types

    /// Registers (or replaces) a param type. Built-in types cannot be replaced. Registering a type
    /// again replaces it for the routes that already use it as well. A result that is or holds
    /// NaN or an infinity counts as "does not convert".
    public func registerType(_ name: String, convert: @escaping (String) throws -> Value?) throws(PatternError) {
        guard !ParamType.builtinNames.contains(name) else {
            throw PatternError(pattern: "(:\(name))", reason: "'\(name)' is a built-in type and cannot be redefined")
        }
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_",
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") })
        else {
            throw PatternError(pattern: "(:\(name))", reason: "'\(name)' is not a type name (letters, digits and '_')")
        }
        // A non-finite number is not a value a URL can carry back (nor JSON write): no match.
        index.register(ParamType(name: name) { text in
            guard let value = try convert(text), value.isFiniteThroughout else { return nil }
            return value
        })
    }

    /// Converts text as the named type would when matching: nil when it does not convert.
    public func convert(_ text: String, as type: String) throws -> Value? {
        guard let paramType = index.type(named: type) else { return nil }
        return try paramType.convert(text)
    }

    /// The pattern `text` spells, with this table's param types known: what `add` would
    /// register, or the `PatternError` that says where the text is wrong.
    public func parse(_ text: String) throws(PatternError) -> Pattern {
        try PatternParser(knownTypes: { [index] in index.type(named: $0) != nil }).parse(text)
    }

    // MARK: Registration

    /// Adds a route. The same pattern text again replaces the old route (which is returned); a
    /// different text of the same shape (differing only in param names or spelling) is a conflict.
    @discardableResult
    public func add(_ patternText: String, target: Target, options: RouteOptions = RouteOptions()) throws(PatternError) -> Route<Target>? {
        try add(parse(patternText), target: target, options: options)
    }

    /// Adds a route for a pattern already parsed by this table (`parse`), as `add(_:target:options:)`.
    @discardableResult
    public func add(_ pattern: Pattern, target: Target, options: RouteOptions = RouteOptions()) throws(PatternError) -> Route<Target>? {
        if pattern.isDefault {
            defer { defaultRoute = Route(pattern: pattern, target: target, options: options) }
            return defaultRoute
        }
        var replaced: Route<Target>?
        let registered = index.find(pattern)
        if let existing = registered.sameText {
            replaced = remove(id: existing)
        } else if let other = registered.sameShape {
            throw PatternError(pattern: pattern.text, reason: "conflicts with '\(index.pattern(other).text)': the two differ only in param names or spelling, so neither could ever win")
        }
        let id = index.insert(pattern)
        let slot = Slot(target: target, options: RouteOptions.Shared.holding(options))
        if id == slots.count { slots.append(slot) } else { slots[id] = slot }
        return replaced
    }

    /// Removes the route with this pattern text and returns it; nil when none was registered.
    @discardableResult
    public func remove(_ patternText: String) -> Route<Target>? {
        if patternText == "*" {
            defer { defaultRoute = nil }
            return defaultRoute
        }
        guard let pattern = try? parse(patternText), let id = index.find(pattern).sameText else { return nil }
        return remove(id: id)
    }

    private func remove(id: Int) -> Route<Target> {
        let route = route(id: id)
        index.remove(id: id)
        slots[id] = nil
        return route
    }

    // MARK: Matching

    // `match` is inlinable so that a client's `RouteTable<ItsTarget>` gets a specialized copy: run
    // generically, building the route and the result would look up generic metadata on every call.
    // The search itself is not generic and stays behind `RouteIndex.lookUp`.

    /// The route `urlText` opens by docs/matching.md's rules, with its params, query and
    /// fragment; text that is not a URL is a `noMatch` that says why. Throws what a param
    /// type's conversion throws.
    @inlinable
    public func match(_ urlText: String) throws -> MatchResult<Target> {
        let url: NavigationURL
        do { url = try NavigationURL(urlText) } catch { return .noMatch(reason: error.description) }
        return try match(url)
    }

    /// The route a URL already parsed opens, as `match(_:)` for text.
    @inlinable
    // `consuming`: the match keeps the URL, so the string variant above hands over the one it
    // read instead of copying it.
    public func match(_ url: consuming NavigationURL) throws -> MatchResult<Target> {
        guard let winner = try index.lookUp(url) else {
            if let defaultRoute {
                let query = url.query, fragment = url.fragment
                return .matched(RouteMatch(route: defaultRoute, url: url, params: [:], query: query, fragment: fragment))
            }
            return .noMatch(reason: MatchResult<Target>.noRouteReason)
        }
        let slot = slots[winner.id]!
        let route = Route(pattern: winner.pattern, target: slot.target, sharedOptions: slot.options)
        let fragment = url.fragment
        return .matched(RouteMatch(route: route, url: url, params: winner.params, query: winner.query, fragment: fragment))
    }

    /// Why `urlText` opens the route it does: every candidate route and the rule that decided
    /// between them (what `wayfinder match --explain` prints).
    public func explain(_ urlText: String) throws -> MatchExplanation {
        let url: NavigationURL
        do { url = try NavigationURL(urlText) } catch {
            return MatchExplanation(url: urlText, winner: nil, reason: error.description, entries: [])
        }
        return try RouteExplainer(index: index).explain(url)
    }

    /// Pairs of routes that can match one URL with equal precedence, so that only the last resort
    /// (pattern text order) decides between them.
    public func tieWarnings() -> [String] {
        var groups: [[AnyHashable]: [Pattern]] = [:]
        for id in index.ids {
            let p = index.pattern(id)
            groups[[p.rootKey, p.precedence.withoutQuery], default: []].append(p)
        }
        var warnings = [String]()
        for group in groups.values where group.count > 1 {
            let sorted = group.sorted { $0.text < $1.text }
            for i in 0..<sorted.count {
                for j in (i + 1)..<sorted.count where Self.canOverlap(sorted[i], sorted[j]) && Precedence.canTie(sorted[i], sorted[j]) {
                    warnings.append("'\(sorted[i].text)' and '\(sorted[j].text)' can match the same URL with equal precedence; '\(sorted[i].text)' wins only because its text sorts first")
                }
            }
        }
        return warnings.sorted()
    }

    private static func canOverlap(_ a: Pattern, _ b: Pattern) -> Bool {
        for (ca, cb) in zip([a.host] + a.path, [b.host] + b.path) {
            if case .literal(let la) = ca, case .literal(let lb) = cb, la != lb { return false }
        }
        let bQuery = Dictionary(b.query.map { ($0.key, $0.component) }, uniquingKeysWith: { first, _ in first })
        for component in a.query {
            if case .literal(let la) = component.component, case .literal(let lb)? = bQuery[component.key], la != lb { return false }
        }
        if case .literal(let fa)? = a.fragment, case .literal(let fb)? = b.fragment, fa != fb { return false }
        return true
    }
}

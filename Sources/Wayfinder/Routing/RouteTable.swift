import OrderedCollections

/// The URL map: patterns compiled into a trie, matched by MATCHING.md's rules.
///
/// Generic over what a route opens, so a Swift app can map URLs to its own controller factories
/// and the Lua host can map them to Lua classes and functions.
public final class RouteTable<Target> {
    private var entries: [Int: Route<Target>] = [:]
    private var idsByText: [String: Int] = [:]
    private var idsByShape: [String: Int] = [:]
    private var schemes: [String: TrieNode] = [:]
    private var defaultRoute: Route<Target>?
    private var nextID = 0
    private var types: [String: ParamType] = [:]

    public init() {
        for type in ParamType.builtins { types[type.name] = type }
    }

    public var count: Int { entries.count + (defaultRoute == nil ? 0 : 1) }

    /// Every route, in precedence order (the order in which they would win a tie-free contest),
    /// `*` last.
    public var routes: [Route<Target>] {
        var all = entries.values.sorted { Precedence.outranks($0.pattern, 0, $1.pattern, 0) }
        if let defaultRoute { all.append(defaultRoute) }
        return all
    }

    /// Whether some pattern uses `scheme` (lowercased), so the navigator can tell external URLs.
    public func usesScheme(_ scheme: String) -> Bool { schemes[scheme] != nil }

    public func route(for patternText: String) -> Route<Target>? {
        if patternText == "*" { return defaultRoute }
        return idsByText[patternText].flatMap { entries[$0] }
    }

    // MARK: Types

    /// Registers (or replaces) a param type. Built-in types cannot be replaced.
    public func registerType(_ name: String, convert: @escaping (String) throws -> Value?) throws(PatternError) {
        guard !ParamType.builtinNames.contains(name) else {
            throw PatternError(pattern: "(:\(name))", reason: "'\(name)' is a built-in type and cannot be redefined")
        }
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_",
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == "_") })
        else {
            throw PatternError(pattern: "(:\(name))", reason: "'\(name)' is not a type name (letters, digits and '_')")
        }
        types[name] = ParamType(name: name, convert: convert)
    }

    public func hasType(_ name: String) -> Bool { types[name] != nil }

    /// Converts text as the named type would when matching: nil when it does not convert.
    public func convert(_ text: String, as type: String) throws -> Value? {
        guard let paramType = types[type] else { return nil }
        return try paramType.convert(text)
    }

    public func parse(_ text: String) throws(PatternError) -> Pattern {
        try PatternParser(knownTypes: { [types] in types[$0] != nil }).parse(text)
    }

    // MARK: Registration

    /// Adds a route. The same pattern text again replaces the old route (which is returned); a
    /// different text of the same shape (differing only in param names or spelling) is a conflict.
    @discardableResult
    public func add(_ patternText: String, target: Target, options: RouteOptions = RouteOptions()) throws(PatternError) -> Route<Target>? {
        let pattern = try parse(patternText)
        let route = Route(pattern: pattern, target: target, options: options)
        if pattern.isDefault {
            defer { defaultRoute = route }
            return defaultRoute
        }
        var replaced: Route<Target>?
        if let existing = idsByText[patternText] {
            replaced = remove(id: existing)
        } else if let other = idsByShape[pattern.shape], let otherRoute = entries[other] {
            throw PatternError(pattern: patternText, reason: "conflicts with '\(otherRoute.pattern.text)': the two differ only in param names or spelling, so neither could ever win")
        }
        let id = nextID
        nextID += 1
        entries[id] = route
        idsByText[patternText] = id
        idsByShape[pattern.shape] = id
        insert(id, pattern)
        return replaced
    }

    @discardableResult
    public func remove(_ patternText: String) -> Route<Target>? {
        if patternText == "*" {
            defer { defaultRoute = nil }
            return defaultRoute
        }
        guard let id = idsByText[patternText] else { return nil }
        return remove(id: id)
    }

    private func remove(id: Int) -> Route<Target>? {
        guard let route = entries.removeValue(forKey: id) else { return nil }
        idsByText[route.pattern.text] = nil
        idsByShape[route.pattern.shape] = nil
        let pattern = route.pattern
        guard let root = schemes[pattern.scheme] else { return route }
        // Walk down recording the path, take the id out, then prune and refresh on the way up.
        var trail: [(node: TrieNode, component: Pattern.Component)] = []
        var node = root
        let positional = positionalComponents(pattern)
        for component in positional.body {
            guard let next = node.existingChild(for: component) else { return route }
            trail.append((node, component))
            node = next
        }
        if positional.catchAll { node.catchAlls.removeAll { $0 == id } } else { node.routes.removeAll { $0 == id } }
        node.refreshMaximum(specificity: specificity(of:))
        for (parent, component) in trail.reversed() {
            if let child = parent.existingChild(for: component), child.isEmpty { parent.removeChild(for: component) }
            parent.refreshMaximum(specificity: specificity(of:))
        }
        if root.isEmpty { schemes[pattern.scheme] = nil }
        return route
    }

    private func insert(_ id: Int, _ pattern: Pattern) {
        let root = schemes[pattern.scheme] ?? TrieNode()
        schemes[pattern.scheme] = root
        var trail = [root]
        var node = root
        let positional = positionalComponents(pattern)
        for component in positional.body {
            node = node.child(for: component)
            trail.append(node)
        }
        if positional.catchAll { node.catchAlls.append(id) } else { node.routes.append(id) }
        for node in trail { node.maxSpecificity = max(node.maxSpecificity, pattern.specificity) }
    }

    /// The host and path components that are trie levels; a trailing catch-all is not a level.
    private func positionalComponents(_ pattern: Pattern) -> (body: ArraySlice<Pattern.Component>, catchAll: Bool) {
        let all = [pattern.host] + pattern.path
        if let last = all.last?.param, last.isCatchAll { return (all.dropLast(), true) }
        return (all[...], false)
    }

    private func specificity(of id: Int) -> Int { entries[id]?.pattern.specificity ?? Int.min }

    // MARK: Matching

    public func match(_ urlText: String) throws -> MatchResult<Target> {
        let url: NavigationURL
        do { url = try NavigationURL(urlText) } catch { return .noMatch(reason: error.description) }
        return try match(url)
    }

    public func match(_ url: NavigationURL) throws -> MatchResult<Target> {
        var search = Search(table: self, url: url, explaining: false)
        try search.run()
        return search.result()
    }

    public func explain(_ urlText: String) throws -> MatchExplanation {
        let url: NavigationURL
        do { url = try NavigationURL(urlText) } catch {
            return MatchExplanation(url: urlText, winner: nil, reason: error.description, entries: [])
        }
        var search = Search(table: self, url: url, explaining: true)
        try search.run()
        return search.explanation()
    }

    /// Pairs of routes that can match the same URL with equal precedence, so that only the last
    /// resort (pattern text order) decides between them.
    public func tieWarnings() -> [String] {
        var groups: [String: [Route<Target>]] = [:]
        for route in entries.values {
            let p = route.pattern
            let key = "\(p.scheme)|\(p.specificity)|\(p.path.count)|\(p.ranks.map(String.init).joined(separator: ","))"
            groups[key, default: []].append(route)
        }
        var warnings = [String]()
        for group in groups.values where group.count > 1 {
            let sorted = group.sorted { $0.pattern.text < $1.pattern.text }
            for i in 0..<sorted.count {
                for j in (i + 1)..<sorted.count where Self.canOverlap(sorted[i].pattern, sorted[j].pattern) {
                    warnings.append("'\(sorted[i].pattern.text)' and '\(sorted[j].pattern.text)' can match the same URL with equal precedence; '\(sorted[i].pattern.text)' wins only because its text sorts first")
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

    // MARK: The search

    private struct Candidate {
        let id: Int
        let boundQuery: Int
        let captures: [Value]
        let queryValues: [Value?]
        let fragmentValue: Value?
        let consumedKeys: [String]
    }

    /// A depth-first search over the trie in precedence order (literal, typed, string, catch-all)
    /// that backtracks, keeps the best candidate, and prunes subtrees that cannot beat it.
    private struct Search {
        let table: RouteTable<Target>
        let url: NavigationURL
        let explaining: Bool
        /// The text of each level: the host, then the segments. Literal hosts are found by the
        /// lowercased host, literal segments by the segment itself.
        let texts: [String]
        let hostKey: String
        var captures: [Value]
        var best: Candidate?
        var candidates: [Candidate] = []
        var failures: [(id: Int, reason: String)] = []

        init(table: RouteTable<Target>, url: NavigationURL, explaining: Bool) {
            self.table = table
            self.url = url
            self.explaining = explaining
            texts = [url.host ?? ""] + url.segments
            hostKey = url.hostKey
            captures = Array(repeating: .null, count: texts.count + 1)
        }

        mutating func run() throws {
            guard url.host != nil, let root = table.schemes[url.scheme] else { return }
            try visit(root, depth: 0)
        }

        private var bestSpecificity: Int {
            guard let best, let route = table.entries[best.id] else { return Int.min }
            return route.pattern.specificity
        }

        private mutating func visit(_ node: TrieNode, depth: Int) throws {
            if !explaining && node.maxSpecificity < bestSpecificity { return }
            let remaining = texts.count - depth
            if remaining == 0 {
                for id in node.routes { try consider(id, depth: depth, catchAll: nil) }
                if explaining && !(node.literals.isEmpty && node.params.isEmpty && node.catchAlls.isEmpty) {
                    var below = node.catchAlls
                    for child in node.literals.values { child.allRoutes(into: &below) }
                    for edge in node.params { edge.node.allRoutes(into: &below) }
                    for id in below { failures.append((id, "the URL ends before the pattern does")) }
                }
                return
            }
            if explaining {
                for id in node.routes { failures.append((id, "the URL has \(remaining) more path segment(s) than the pattern")) }
            }
            if depth > 0 && !node.catchAlls.isEmpty {
                let rest = texts[depth...].joined(separator: "/")
                for id in node.catchAlls { try consider(id, depth: depth, catchAll: .string(rest)) }
            }
            if let child = node.literals[depth == 0 ? hostKey : texts[depth]] {
                captures[depth] = .null
                try visit(child, depth: depth + 1)
            }
            for edge in node.params {
                if !explaining && edge.node.maxSpecificity < bestSpecificity { continue }
                guard let value = try table.types[edge.type]?.convert(texts[depth]) else {
                    if explaining {
                        var below = [Int]()
                        edge.node.allRoutes(into: &below)
                        let place = depth == 0 ? "host" : "path segment \(depth)"
                        for id in below { failures.append((id, "\(place) '\(texts[depth])' is not a valid \(edge.type)")) }
                    }
                    continue
                }
                captures[depth] = value
                try visit(edge.node, depth: depth + 1)
            }
        }

        private mutating func consider(_ id: Int, depth: Int, catchAll: Value?) throws {
            guard let route = table.entries[id] else { return }
            let pattern = route.pattern
            var queryValues = [Value?]()
            var consumed = [String]()
            var bound = 0
            for component in pattern.query {
                let present = url.query[component.key]
                switch (component.component, present) {
                case (.literal(let expected), nil):
                    return fail(id, "query '\(component.key)' is missing (needs '\(expected)')")
                case (.literal(let expected), .string(let actual)?):
                    guard actual == expected else { return fail(id, "query '\(component.key)' is '\(actual)', needs '\(expected)'") }
                    queryValues.append(nil)
                case (.literal(let expected), _?):
                    return fail(id, "query '\(component.key)' needs the single value '\(expected)'")
                case (.param, nil):
                    queryValues.append(nil)
                case (.param(let param), .string(let text)?):
                    guard let value = try table.types[param.type]?.convert(text) else {
                        return fail(id, "query '\(component.key)' '\(text)' is not a valid \(param.type)")
                    }
                    queryValues.append(value)
                    bound += 1
                case (.param(let param), .bool(true)?) where param.type == "bool":
                    queryValues.append(.bool(true))
                    bound += 1
                case (.param(let param), _?):
                    return fail(id, "query '\(component.key)' needs a single \(param.type) value")
                }
                if present != nil { consumed.append(component.key) }
            }
            var fragmentValue: Value?
            if let fragmentComponent = pattern.fragment {
                guard let fragment = url.fragment else { return fail(id, "the URL has no fragment") }
                switch fragmentComponent {
                case .literal(let expected):
                    guard fragment == expected else { return fail(id, "fragment '\(fragment)' is not '\(expected)'") }
                case .param(let param):
                    guard let value = try table.types[param.type]?.convert(fragment) else {
                        return fail(id, "fragment '\(fragment)' is not a valid \(param.type)")
                    }
                    fragmentValue = value
                }
            }
            var captured = Array(captures[0..<depth])
            if let catchAll { captured.append(catchAll) }
            let candidate = Candidate(id: id, boundQuery: bound, captures: captured, queryValues: queryValues,
                                      fragmentValue: fragmentValue, consumedKeys: consumed)
            if explaining { candidates.append(candidate) }
            if let best, let bestRoute = table.entries[best.id],
               !Precedence.outranks(pattern, bound, bestRoute.pattern, best.boundQuery) {
                return
            }
            best = candidate
        }

        private mutating func fail(_ id: Int, _ reason: String) {
            if explaining { failures.append((id, reason)) }
        }

        func result() -> MatchResult<Target> {
            guard let best, let route = table.entries[best.id] else {
                if let fallback = table.defaultRoute {
                    return .matched(RouteMatch(route: fallback, url: url, params: [:], query: url.query, fragment: url.fragment))
                }
                return .noMatch(reason: MatchResult<Target>.noRouteReason)
            }
            var params = OrderedDictionary<String, Value>()
            let pattern = route.pattern
            for (component, value) in zip([pattern.host] + pattern.path, best.captures) {
                if let name = component.param?.name { params[name] = value }
            }
            for (component, value) in zip(pattern.query, best.queryValues) {
                if let name = component.component.param?.name, let value { params[name] = value }
            }
            if let name = pattern.fragment?.param?.name, let value = best.fragmentValue { params[name] = value }
            var query = url.query
            for key in best.consumedKeys { query[key] = nil }
            return .matched(RouteMatch(route: route, url: url, params: params, query: query, fragment: url.fragment))
        }

        func explanation() -> MatchExplanation {
            let outcome = result()
            var entries = [MatchExplanation.Entry]()
            if let winner = outcome.match {
                entries.append(.init(pattern: winner.route.pattern.text, verdict: .won))
                if !winner.route.pattern.isDefault, let best {
                    let losers = candidates.filter { $0.id != best.id }.sorted {
                        Precedence.outranks(table.entries[$0.id]!.pattern, $0.boundQuery, table.entries[$1.id]!.pattern, $1.boundQuery)
                    }
                    for loser in losers {
                        let pattern = table.entries[loser.id]!.pattern
                        let why = Precedence.reason(loser: pattern, loser.boundQuery, winner: winner.route.pattern, best.boundQuery)
                        entries.append(.init(pattern: pattern.text, verdict: .lost(why)))
                    }
                    if let fallback = table.defaultRoute {
                        entries.append(.init(pattern: fallback.pattern.text, verdict: .lost("'*' is used only when nothing else matches")))
                    }
                }
            }
            var seen = Set<Int>()
            for failure in failures where seen.insert(failure.id).inserted {
                guard let pattern = table.entries[failure.id]?.pattern.text else { continue }
                entries.append(.init(pattern: pattern, verdict: .failed(failure.reason)))
            }
            let reason: String?
            switch outcome {
            case .matched: reason = nil
            case .noMatch(let why): reason = why
            }
            return MatchExplanation(url: url.text, winner: outcome.match?.route.pattern.text, reason: reason, entries: entries)
        }
    }
}

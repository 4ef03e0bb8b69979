import OrderedCollections

/// A depth-first search over the trie in precedence order (literal, typed, string, catch-all)
/// that backtracks, keeps the best candidate by `Precedence`, and prunes subtrees whose host and
/// path specificity cannot reach the best candidate's.
///
/// It works on route ids only; the table turns the winning id into a `RouteMatch` once at the end.
@usableFromInline
struct RouteSearch {
    /// The winning route, its named values in pattern order, and the URL's query without the pairs
    /// the pattern consumed.
    @usableFromInline
    struct Winner {
        @usableFromInline let id: Int
        @usableFromInline let pattern: Pattern
        @usableFromInline let params: OrderedDictionary<String, Value>
        @usableFromInline let query: OrderedDictionary<String, Value>
    }

    struct Candidate {
        let id: Int
        let query: Precedence.QueryScore
        /// By level: the host's value, then each path segment's (`.null` for a literal), then the
        /// catch-all's.
        let captures: [Value]
        /// By query component; nil where nothing is bound.
        let queryValues: [Value?]
        let fragmentValue: Value?
        let consumedKeys: [String]
    }

    let index: RouteIndex
    let url: NavigationURL
    let explaining: Bool
    /// Level 0 is the host, level n is path segment n.
    private let levels: Int
    /// Each level's text as a literal id in the index's pool, -1 where no pattern has that text:
    /// looked up once here, so each node visited follows its literal edge by number.
    private var literalIDs: [Int32]
    /// The values bound on the path being searched, by level.
    private var captures: [Value]
    private(set) var best: Candidate?
    /// The best candidate's pattern, specificity and query score, for comparing without copying `best`.
    private var bestPattern: Pattern?
    private var bestSpecificity = Int32.min
    private var bestQuery = Precedence.QueryScore()
    private var candidates: [Candidate] = []
    private var failures: [(id: Int, reason: String)] = []

    init(index: RouteIndex, url: NavigationURL, explaining: Bool) {
        self.index = index
        self.url = url
        self.explaining = explaining
        levels = url.segments.count + 1
        captures = Array(repeating: .null, count: levels)
        literalIDs = []
        literalIDs.reserveCapacity(levels)
        literalIDs.append(index.literals.id(of: url.hostKey) ?? TrieNode.none)
        for segment in url.segments { literalIDs.append(index.literals.id(of: segment) ?? TrieNode.none) }
    }

    mutating func run() throws {
        guard url.host != nil, let rootKey = index.literals.id(of: url.rootKey),
              let root = index.edges.child(of: RouteIndex.top, literal: rootKey) else { return }
        try visit(root, depth: 0)
    }

    /// The decoded text at a level; the host is non-nil once the search runs.
    private func text(at depth: Int) -> String {
        depth == 0 ? url.host ?? "" : url.segments[depth - 1]
    }

    private mutating func visit(_ nodeIndex: Int32, depth: Int) throws {
        let node = index.nodes[Int(nodeIndex)]
        if !explaining && node.maxSpecificity < bestSpecificity { return }
        let remaining = levels - depth
        if remaining == 0 {
            var route = node.firstRoute
            while route != TrieNode.none {
                try consider(Int(route), depth: depth, catchAll: nil)
                route = index.nextRoute[Int(route)]
            }
            if explaining {
                var below = index.routes(at: nodeIndex, catchAll: true)
                for list in [node.firstLiteralChild, node.firstParamChild] {
                    var child = list
                    while child != TrieNode.none {
                        index.allRoutes(below: child, into: &below)
                        child = index.nodes[Int(child)].nextSibling
                    }
                }
                for id in below { failures.append((id, "the URL ends before the pattern does")) }
            }
            return
        }
        if explaining {
            for id in index.routes(at: nodeIndex, catchAll: false) {
                failures.append((id, "the URL has \(remaining) more path segment(s) than the pattern"))
            }
        }
        if depth > 0 && node.firstCatchAll != TrieNode.none {
            let rest = Value.string(url.segments[(depth - 1)...].joined(separator: "/"))
            var route = node.firstCatchAll
            while route != TrieNode.none {
                try consider(Int(route), depth: depth, catchAll: rest)
                route = index.nextRoute[Int(route)]
            }
        }
        let literal = literalIDs[depth]
        if literal != TrieNode.none, let child = index.edges.child(of: nodeIndex, literal: literal) {
            captures[depth] = .null
            try visit(child, depth: depth + 1)
        }
        var edge = node.firstParamChild
        if edge == TrieNode.none { return }
        let text = text(at: depth)
        while edge != TrieNode.none {
            let child = index.nodes[Int(edge)]
            defer { edge = child.nextSibling }
            if !explaining && child.maxSpecificity < bestSpecificity { continue }
            let type = index.typeSlots[Int(child.label)]
            guard let value = try type.convert(text) else {
                if explaining {
                    var below = [Int]()
                    index.allRoutes(below: edge, into: &below)
                    let place = depth == 0 ? "host" : "path segment \(depth)"
                    for id in below { failures.append((id, "\(place) '\(text)' is not a valid \(type.name)")) }
                }
                continue
            }
            captures[depth] = value
            try visit(edge, depth: depth + 1)
        }
    }

    private mutating func consider(_ id: Int, depth: Int, catchAll: Value?) throws {
        guard let pattern = index.patterns[id] else { return }
        var queryValues = [Value?]()
        var consumed = [String]()
        var score = Precedence.QueryScore()
        for n in 0..<pattern.queryCount {
            let valueIndex = pattern.queryValueIndex(n)
            let key = pattern.literal(valueIndex - 1)
            let present = url.query[key]
            if pattern.rank(valueIndex) == Precedence.literalRank {
                let expected = pattern.literal(valueIndex)
                switch present {
                case nil:
                    return fail(id, "query '\(key)' is missing (needs '\(expected)')")
                case .string(let actual)?:
                    guard actual == expected else { return fail(id, "query '\(key)' is '\(actual)', needs '\(expected)'") }
                    queryValues.append(nil)
                case _?:
                    return fail(id, "query '\(key)' needs the single value '\(expected)'")
                }
            } else {
                let type = pattern.paramType(valueIndex)
                switch present {
                case nil:
                    queryValues.append(nil)
                case .string(let text)?:
                    guard let value = try index.type(named: type)?.convert(text) else {
                        return fail(id, "query '\(key)' '\(text)' is not a valid \(type)")
                    }
                    queryValues.append(value)
                case .bool(true)? where type == "bool":
                    queryValues.append(.bool(true))
                case _?:
                    return fail(id, "query '\(key)' needs a single \(type) value")
                }
            }
            if present != nil {
                score.add(rank: pattern.rank(valueIndex))
                consumed.append(key)
            }
        }
        var fragmentValue: Value?
        if let fragmentIndex = pattern.fragmentIndex {
            guard let fragment = url.fragment else { return fail(id, "the URL has no fragment") }
            if pattern.rank(fragmentIndex) == Precedence.literalRank {
                let expected = pattern.literal(fragmentIndex)
                guard fragment == expected else { return fail(id, "fragment '\(fragment)' is not '\(expected)'") }
            } else {
                let type = pattern.paramType(fragmentIndex)
                guard let value = try index.type(named: type)?.convert(fragment) else {
                    return fail(id, "fragment '\(fragment)' is not a valid \(type)")
                }
                fragmentValue = value
            }
        }
        if !explaining, let bestPattern {
            // Decided before the candidate is built, so a loser costs no allocations.
            guard Precedence.outranks(pattern.precedence, score, bestPattern.precedence, bestQuery) else { return }
        }
        var captured = Array(captures[0..<depth])
        if let catchAll { captured.append(catchAll) }
        let candidate = Candidate(id: id, query: score, captures: captured, queryValues: queryValues,
                                  fragmentValue: fragmentValue, consumedKeys: consumed)
        if explaining {
            candidates.append(candidate)
            if let bestPattern, !Precedence.outranks(pattern.precedence, score, bestPattern.precedence, bestQuery) { return }
        }
        best = candidate
        bestPattern = pattern
        bestQuery = score
        bestSpecificity = Int32(pattern.specificity)
    }

    private mutating func fail(_ id: Int, _ reason: String) {
        if explaining { failures.append((id, reason)) }
    }

    func winner(from best: Candidate) -> Winner {
        let pattern = index.pattern(best.id)
        // Sized up front: growing from empty would reallocate the keys and values once per param.
        var named = 0
        for piece in 0..<pattern.pieceCount where pattern.isNamedParam(piece) { named += 1 }
        var params = OrderedDictionary<String, Value>(minimumCapacity: named)
        var captures = best.captures.makeIterator()
        for piece in pattern.positional {
            guard let value = captures.next() else { break }
            if pattern.rank(piece) != Precedence.literalRank, let name = pattern.paramName(piece) { params[name] = value }
        }
        for (n, value) in best.queryValues.enumerated() {
            if let value, let name = pattern.paramName(pattern.queryValueIndex(n)) { params[name] = value }
        }
        if let fragmentIndex = pattern.fragmentIndex, let value = best.fragmentValue, let name = pattern.paramName(fragmentIndex) {
            params[name] = value
        }
        var query = url.query
        for key in best.consumedKeys { query[key] = nil }
        return Winner(id: best.id, pattern: pattern, params: params, query: query)
    }

    func explanation() -> MatchExplanation {
        var entries = [MatchExplanation.Entry]()
        let winnerText: String?
        var reason: String?
        if let best, let winner = index.patterns[best.id] {
            winnerText = winner.text
            entries.append(.init(pattern: winner.text, verdict: .won))
            let losers = candidates.filter { $0.id != best.id }.sorted {
                Precedence.outranks(index.pattern($0.id).precedence, $0.query, index.pattern($1.id).precedence, $1.query)
            }
            for loser in losers {
                let pattern = index.pattern(loser.id)
                let why = Precedence.reason(loser: pattern, loser.query, winner: winner, best.query) { url.query[$0] != nil }
                entries.append(.init(pattern: pattern.text, verdict: .lost(why)))
            }
            if index.hasDefaultRoute {
                entries.append(.init(pattern: Pattern.defaultRoute.text, verdict: .lost("'*' is used only when nothing else matches")))
            }
        } else if index.hasDefaultRoute {
            winnerText = Pattern.defaultRoute.text
            entries.append(.init(pattern: Pattern.defaultRoute.text, verdict: .won))
        } else {
            winnerText = nil
            reason = MatchResult<Never>.noRouteReason
        }
        var seen = Set<Int>()
        for failure in failures where seen.insert(failure.id).inserted {
            guard let pattern = index.patterns[failure.id]?.text else { continue }
            entries.append(.init(pattern: pattern, verdict: .failed(failure.reason)))
        }
        return MatchExplanation(url: url.text, winner: winnerText, reason: reason, entries: entries)
    }
}

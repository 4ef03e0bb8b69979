import OrderedCollections

/// A depth-first search over the trie in precedence order (literal, typed, string, catch-all)
/// that backtracks, keeps the best candidate by `Precedence`, and prunes subtrees whose host and
/// path specificity cannot reach the best candidate's.
///
/// It works on route ids only; the table turns the winning id into a `RouteMatch` once at the end.
///
/// The index and the URL are borrowed (the URL is passed down rather than stored, so the search
/// does not copy it) and read by non-mutating methods; what the search changes is a separate
/// `State` passed `inout`. A mutating method could not read the index's arrays or the URL's parts
/// without retaining each one first, at every node.
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
        /// What the host and path params bound, in pattern order, the catch-all's last.
        let captures: [Value]
        /// By query component; nil where nothing is bound.
        let queryValues: [Value?]
        let fragmentValue: Value?
        let consumedKeys: [String]
    }

    /// What the search has found so far.
    struct State {
        /// By level (level 0 is the host, level n path segment n): the level's text as a literal
        /// id in the index's pool, -1 where no pattern has that text. Looked up once, so each node
        /// visited follows its literal edge by number.
        let literals: [Int32]
        /// What the params on the path being searched bound, in order: pushed on the way down,
        /// popped on the way back. Only params bind, so a literal level costs nothing here.
        var bound: [Value] = []
        var best: Candidate?
        /// The best candidate's pattern, specificity and query score, for comparing without
        /// copying `best`.
        var bestPattern: Pattern?
        var bestSpecificity = Int32.min
        var bestQuery = Precedence.QueryScore()
        /// Only when explaining: every candidate, and why each route reached failed.
        var candidates: [Candidate] = []
        var failures: [(id: Int, reason: String)] = []
    }

    let index: RouteIndex
    let explaining: Bool

    func run(_ url: NavigationURL) throws -> State {
        let pool = index.literals
        var literals = [Int32]()
        literals.reserveCapacity(url.segments.count + 1)
        literals.append(pool.id(of: url.hostKey) ?? TrieNode.none)
        for segment in url.segments { literals.append(pool.id(of: segment) ?? TrieNode.none) }
        var state = State(literals: literals)
        guard url.host != nil, let rootKey = pool.id(of: url.rootKey),
              let root = index.edges.child(of: RouteIndex.top, literal: rootKey) else { return state }
        try visit(root, depth: 0, url, &state)
        return state
    }

    /// The decoded text at a level; the host is non-nil once the search runs.
    private func text(at depth: Int, _ url: NavigationURL) -> String {
        depth == 0 ? url.host ?? "" : url.segments[depth - 1]
    }

    private func visit(_ nodeIndex: Int32, depth: Int, _ url: NavigationURL, _ state: inout State) throws {
        let node = index.nodes[Int(nodeIndex)]
        if !explaining && node.maxSpecificity < state.bestSpecificity { return }
        let remaining = state.literals.count - depth
        if remaining == 0 {
            var route = node.firstRoute
            while route != TrieNode.none {
                try consider(Int(route), depth: depth, catchAll: nil, url, &state)
                route = index.records[Int(route)].next
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
                for id in below { state.failures.append((id, "the URL ends before the pattern does")) }
            }
            return
        }
        if explaining {
            for id in index.routes(at: nodeIndex, catchAll: false) {
                state.failures.append((id, "the URL has \(remaining) more path segment(s) than the pattern"))
            }
        }
        if depth > 0 && node.firstCatchAll != TrieNode.none {
            let rest = Value.string(url.segments[(depth - 1)...].joined(separator: "/"))
            var route = node.firstCatchAll
            while route != TrieNode.none {
                try consider(Int(route), depth: depth, catchAll: rest, url, &state)
                route = index.records[Int(route)].next
            }
        }
        let literal = state.literals[depth]
        if literal != TrieNode.none, let child = index.edges.child(of: nodeIndex, literal: literal) {
            try visit(child, depth: depth + 1, url, &state)
        }
        var edge = node.firstParamChild
        if edge == TrieNode.none { return }
        let text = text(at: depth, url)
        while edge != TrieNode.none {
            let child = index.nodes[Int(edge)]
            defer { edge = child.nextSibling }
            if !explaining && child.maxSpecificity < state.bestSpecificity { continue }
            let type = index.typeSlots[Int(child.label)]
            guard let value = try type.convert(text) else {
                if explaining {
                    var below = [Int]()
                    index.allRoutes(below: edge, into: &below)
                    let place = depth == 0 ? "host" : "path segment \(depth)"
                    for id in below { state.failures.append((id, "\(place) '\(text)' is not a valid \(type.name)")) }
                }
                continue
            }
            state.bound.append(value)
            defer { state.bound.removeLast() }
            try visit(edge, depth: depth + 1, url, &state)
        }
    }

    private func consider(_ id: Int, depth: Int, catchAll: Value?, _ url: NavigationURL, _ state: inout State) throws {
        guard let pattern = index.records[id].pattern else { return }
        func fail(_ reason: String) {
            if explaining { state.failures.append((id, reason)) }
        }
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
                    return fail("query '\(key)' is missing (needs '\(expected)')")
                case .string(let actual)?:
                    guard actual == expected else { return fail("query '\(key)' is '\(actual)', needs '\(expected)'") }
                    queryValues.append(nil)
                case _?:
                    return fail("query '\(key)' needs the single value '\(expected)'")
                }
            } else {
                let type = pattern.paramType(valueIndex)
                switch present {
                case nil:
                    queryValues.append(nil)
                case .string(let text)?:
                    guard let value = try index.type(named: type)?.convert(text) else {
                        return fail("query '\(key)' '\(text)' is not a valid \(type)")
                    }
                    queryValues.append(value)
                case .bool(true)? where type == "bool":
                    queryValues.append(.bool(true))
                case _?:
                    return fail("query '\(key)' needs a single \(type) value")
                }
            }
            if present != nil {
                score.add(rank: pattern.rank(valueIndex))
                consumed.append(key)
            }
        }
        var fragmentValue: Value?
        if let fragmentIndex = pattern.fragmentIndex {
            guard let fragment = url.fragment else { return fail("the URL has no fragment") }
            if pattern.rank(fragmentIndex) == Precedence.literalRank {
                let expected = pattern.literal(fragmentIndex)
                guard fragment == expected else { return fail("fragment '\(fragment)' is not '\(expected)'") }
            } else {
                let type = pattern.paramType(fragmentIndex)
                guard let value = try index.type(named: type)?.convert(fragment) else {
                    return fail("fragment '\(fragment)' is not a valid \(type)")
                }
                fragmentValue = value
            }
        }
        if !explaining, let bestPattern = state.bestPattern {
            // Decided before the candidate is built, so a loser costs no allocations.
            guard Precedence.outranks(pattern.precedence, score, bestPattern.precedence, state.bestQuery) else { return }
        }
        var captured = state.bound
        if let catchAll { captured.append(catchAll) }
        let candidate = Candidate(id: id, query: score, captures: captured, queryValues: queryValues,
                                  fragmentValue: fragmentValue, consumedKeys: consumed)
        if explaining {
            state.candidates.append(candidate)
            if let bestPattern = state.bestPattern,
               !Precedence.outranks(pattern.precedence, score, bestPattern.precedence, state.bestQuery) { return }
        }
        state.best = candidate
        state.bestPattern = pattern
        state.bestQuery = score
        state.bestSpecificity = Int32(pattern.specificity)
    }

    func winner(from best: Candidate, _ url: NavigationURL) -> Winner {
        let pattern = index.pattern(best.id)
        // Names and values gathered first, sized up front, and handed to the dictionary whole:
        // inserting one by one would reallocate and look each name up as it goes.
        var named = 0
        for piece in 0..<pattern.pieceCount where pattern.isNamedParam(piece) { named += 1 }
        var names = ContiguousArray<String>(), values = ContiguousArray<Value>()
        names.reserveCapacity(named)
        values.reserveCapacity(named)
        func bind(_ piece: Int, _ value: Value) {
            if let name = pattern.paramName(piece) {
                names.append(name)
                values.append(value)
            }
        }
        var captures = best.captures.makeIterator()
        for piece in pattern.positional where pattern.rank(piece) != Precedence.literalRank {
            guard let value = captures.next() else { break }
            bind(piece, value)
        }
        for (n, value) in best.queryValues.enumerated() {
            if let value { bind(pattern.queryValueIndex(n), value) }
        }
        if let fragmentIndex = pattern.fragmentIndex, let value = best.fragmentValue { bind(fragmentIndex, value) }
        var query = url.query
        for key in best.consumedKeys { query[key] = nil }
        // The parser refuses a name used twice in one pattern.
        return Winner(id: best.id, pattern: pattern, params: OrderedDictionary(uncheckedUniqueKeys: names, values: values), query: query)
    }

    func explanation(_ url: NavigationURL, _ state: State) -> MatchExplanation {
        var entries = [MatchExplanation.Entry]()
        let winnerText: String?
        var reason: String?
        if let best = state.best, let winner = index.records[best.id].pattern {
            winnerText = winner.text
            entries.append(.init(pattern: winner.text, verdict: .won))
            let losers = state.candidates.filter { $0.id != best.id }.sorted {
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
        for failure in state.failures where seen.insert(failure.id).inserted {
            guard let pattern = index.records[failure.id].pattern?.text else { continue }
            entries.append(.init(pattern: pattern, verdict: .failed(failure.reason)))
        }
        return MatchExplanation(url: url.text, winner: winnerText, reason: reason, entries: entries)
    }
}

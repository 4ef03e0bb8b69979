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
        /// What the host and path params bound, in pattern order, the catch-all's last.
        let captures: [Value]
        let tail: QueryFragmentMatch
    }

    /// What the search has found so far.
    struct State {
        /// `RouteSearch.levels(of:)`, each node visited follows its literal edge by number.
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
    }

    let index: RouteIndex

    /// By level (level 0 is the host, level n path segment n): the level's text as a literal id in
    /// the index's pool, -1 where no pattern has that text. Looked up once per URL.
    static func levels(of url: NavigationURL, in pool: LiteralPool) -> [Int32] {
        var literals = [Int32]()
        literals.reserveCapacity(url.segments.count + 1)
        literals.append(pool.id(of: url.hostKey) ?? TrieNode.none)
        for segment in url.segments { literals.append(pool.id(of: segment) ?? TrieNode.none) }
        return literals
    }

    /// The trie node under which every pattern with the URL's scheme and host kind lies, or nil
    /// where no pattern has them.
    static func root(of url: NavigationURL, in index: RouteIndex) -> Int32? {
        guard url.host != nil, let rootKey = index.literals.id(of: url.rootKey) else { return nil }
        return index.edges.child(of: RouteIndex.top, literal: rootKey)
    }

    /// The decoded text at a level; the host is non-nil once a search runs.
    static func text(at depth: Int, _ url: NavigationURL) -> String {
        depth == 0 ? url.host ?? "" : url.segments[depth - 1]
    }

    func run(_ url: NavigationURL) throws -> State {
        var state = State(literals: Self.levels(of: url, in: index.literals))
        guard let root = Self.root(of: url, in: index) else { return state }
        try visit(root, depth: 0, url, &state)
        return state
    }

    private func visit(_ nodeIndex: Int32, depth: Int, _ url: NavigationURL, _ state: inout State) throws {
        let node = index.nodes[Int(nodeIndex)]
        if node.maxSpecificity < state.bestSpecificity { return }
        if state.literals.count == depth {
            var route = node.firstRoute
            while route != TrieNode.none {
                try consider(Int(route), catchAll: nil, url, &state)
                route = index.records[Int(route)].next
            }
            return
        }
        if depth > 0 && node.firstCatchAll != TrieNode.none {
            let rest = Value.string(url.segments[(depth - 1)...].joined(separator: "/"))
            var route = node.firstCatchAll
            while route != TrieNode.none {
                try consider(Int(route), catchAll: rest, url, &state)
                route = index.records[Int(route)].next
            }
        }
        let literal = state.literals[depth]
        if literal != TrieNode.none, let child = index.edges.child(of: nodeIndex, literal: literal) {
            try visit(child, depth: depth + 1, url, &state)
        }
        var edge = node.firstParamChild
        if edge == TrieNode.none { return }
        let text = Self.text(at: depth, url)
        while edge != TrieNode.none {
            let child = index.nodes[Int(edge)]
            defer { edge = child.nextSibling }
            if child.maxSpecificity < state.bestSpecificity { continue }
            guard let value = try index.typeSlots[Int(child.label)].convert(text) else { continue }
            state.bound.append(value)
            defer { state.bound.removeLast() }
            try visit(edge, depth: depth + 1, url, &state)
        }
    }

    private func consider(_ id: Int, catchAll: Value?, _ url: NavigationURL, _ state: inout State) throws {
        guard let pattern = index.records[id].pattern,
              case .bound(let tail) = try QueryFragmentMatch.bind(pattern, url, index) else { return }
        if let bestPattern = state.bestPattern {
            // Decided before the candidate is built, so a loser costs no more allocations.
            guard Precedence.outranks(pattern.precedence, tail.score, bestPattern.precedence, state.bestQuery) else { return }
        }
        var captured = state.bound
        if let catchAll { captured.append(catchAll) }
        state.best = Candidate(id: id, captures: captured, tail: tail)
        state.bestPattern = pattern
        state.bestQuery = tail.score
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
        for (n, value) in best.tail.queryValues.enumerated() {
            if let value { bind(pattern.queryValueIndex(n), value) }
        }
        if let fragmentIndex = pattern.fragmentIndex, let value = best.tail.fragmentValue { bind(fragmentIndex, value) }
        var query = url.query
        for key in best.tail.consumedKeys { query[key] = nil }
        // The parser refuses a name used twice in one pattern.
        return Winner(id: best.id, pattern: pattern, params: OrderedDictionary(uncheckedUniqueKeys: names, values: values), query: query)
    }
}

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
        @usableFromInline let entry: RouteIndex.Entry
        @usableFromInline let params: OrderedDictionary<String, Value>
        @usableFromInline let query: OrderedDictionary<String, Value>
    }

    struct Candidate {
        let id: Int
        let query: Precedence.QueryScore
        let captures: [Value]
        let queryValues: [Value?]
        let fragmentValue: Value?
        let consumedKeys: [String]
    }

    let index: RouteIndex
    let url: NavigationURL
    let explaining: Bool
    /// Literal hosts are found by the lowercased host, literal segments by the segment itself.
    private let hostKey: String
    /// Level 0 is the host, level n is path segment n.
    private let levels: Int
    private var captures: [Value]
    private(set) var best: Candidate?
    /// The best candidate's specificity, cached because every node visited is pruned against it.
    private var bestSpecificity = Int.min
    /// The best candidate's route and query score, for comparing without copying `best`.
    private var bestEntry: RouteIndex.Entry?
    private var bestQuery = Precedence.QueryScore()
    private var candidates: [Candidate] = []
    private var failures: [(id: Int, reason: String)] = []

    init(index: RouteIndex, url: NavigationURL, explaining: Bool) {
        self.index = index
        self.url = url
        self.explaining = explaining
        hostKey = url.hostKey
        levels = url.segments.count + 1
        captures = Array(repeating: .null, count: levels + 1)
    }

    mutating func run() throws {
        guard url.host != nil, let root = index.schemes[url.rootKey] else { return }
        try visit(root, depth: 0)
    }

    /// The decoded text at a level; the host is non-nil once the search runs.
    private func text(at depth: Int) -> String {
        depth == 0 ? url.host ?? "" : url.segments[depth - 1]
    }

    private mutating func visit(_ node: TrieNode, depth: Int) throws {
        if !explaining && node.maxSpecificity < bestSpecificity { return }
        let remaining = levels - depth
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
            let rest = url.segments[(depth - 1)...].joined(separator: "/")
            for id in node.catchAlls { try consider(id, depth: depth, catchAll: .string(rest)) }
        }
        if let child = node.literals[depth == 0 ? hostKey : url.segments[depth - 1]] {
            captures[depth] = .null
            try visit(child, depth: depth + 1)
        }
        if node.params.isEmpty { return }
        let text = text(at: depth)
        for edge in node.params {
            if !explaining && edge.node.maxSpecificity < bestSpecificity { continue }
            let type = edge.typeSlot.map { index.typeSlots[$0] } ?? index.type(named: edge.type)
            guard let value = try type?.convert(text) else {
                if explaining {
                    var below = [Int]()
                    edge.node.allRoutes(into: &below)
                    let place = depth == 0 ? "host" : "path segment \(depth)"
                    for id in below { failures.append((id, "\(place) '\(text)' is not a valid \(edge.type)")) }
                }
                continue
            }
            captures[depth] = value
            try visit(edge.node, depth: depth + 1)
        }
    }

    private mutating func consider(_ id: Int, depth: Int, catchAll: Value?) throws {
        guard let entry = index.entries[id] else { return }
        var queryValues = [Value?]()
        var consumed = [String]()
        var score = Precedence.QueryScore()
        for component in entry.pattern.query {
            let present = url.query[component.key]
            switch (component.component, present) {
            case (.literal(let expected), nil):
                return fail(id, "query '\(component.key)' is missing (needs '\(expected)')")
            case (.literal(let expected), .string(let actual)?):
                guard actual == expected else { return fail(id, "query '\(component.key)' is '\(actual)', needs '\(expected)'") }
                queryValues.append(nil)
                score.add(component.component)
            case (.literal(let expected), _?):
                return fail(id, "query '\(component.key)' needs the single value '\(expected)'")
            case (.param, nil):
                queryValues.append(nil)
            case (.param(let param), .string(let text)?):
                guard let value = try index.type(named: param.type)?.convert(text) else {
                    return fail(id, "query '\(component.key)' '\(text)' is not a valid \(param.type)")
                }
                queryValues.append(value)
                score.add(component.component)
            case (.param(let param), .bool(true)?) where param.type == "bool":
                queryValues.append(.bool(true))
                score.add(component.component)
            case (.param(let param), _?):
                return fail(id, "query '\(component.key)' needs a single \(param.type) value")
            }
            if present != nil { consumed.append(component.key) }
        }
        var fragmentValue: Value?
        if let fragmentComponent = entry.pattern.fragment {
            guard let fragment = url.fragment else { return fail(id, "the URL has no fragment") }
            switch fragmentComponent {
            case .literal(let expected):
                guard fragment == expected else { return fail(id, "fragment '\(fragment)' is not '\(expected)'") }
            case .param(let param):
                guard let value = try index.type(named: param.type)?.convert(fragment) else {
                    return fail(id, "fragment '\(fragment)' is not a valid \(param.type)")
                }
                fragmentValue = value
            }
        }
        if !explaining, let bestEntry {
            // Decided before the candidate is built, so a loser costs no allocations.
            guard Precedence.outranks(entry.pattern.precedence, score, bestEntry.pattern.precedence, bestQuery) else { return }
        }
        var captured = Array(captures[0..<depth])
        if let catchAll { captured.append(catchAll) }
        let candidate = Candidate(id: id, query: score, captures: captured, queryValues: queryValues,
                                  fragmentValue: fragmentValue, consumedKeys: consumed)
        if explaining {
            candidates.append(candidate)
            if let bestEntry, !Precedence.outranks(entry.pattern.precedence, score, bestEntry.pattern.precedence, bestQuery) { return }
        }
        best = candidate
        bestEntry = entry
        bestQuery = score
        bestSpecificity = entry.pattern.specificity
    }

    private mutating func fail(_ id: Int, _ reason: String) {
        if explaining { failures.append((id, reason)) }
    }

    func winner(from best: Candidate) -> Winner {
        let entry = index.entry(best.id)
        let pattern = entry.pattern
        // Sized up front: growing from empty would reallocate the keys and values once per param.
        var named = pattern.host.param?.name == nil ? 0 : 1
        for component in pattern.path where component.param?.name != nil { named += 1 }
        for component in pattern.query where component.component.param?.name != nil { named += 1 }
        if pattern.fragment?.param?.name != nil { named += 1 }
        var params = OrderedDictionary<String, Value>(minimumCapacity: named)
        var captures = best.captures.makeIterator()
        if let value = captures.next(), let name = pattern.host.param?.name { params[name] = value }
        for component in pattern.path {
            guard let value = captures.next() else { break }
            if let name = component.param?.name { params[name] = value }
        }
        for (component, value) in zip(pattern.query, best.queryValues) {
            if let name = component.component.param?.name, let value { params[name] = value }
        }
        if let name = pattern.fragment?.param?.name, let value = best.fragmentValue { params[name] = value }
        var query = url.query
        for key in best.consumedKeys { query[key] = nil }
        return Winner(entry: entry, params: params, query: query)
    }

    func explanation() -> MatchExplanation {
        var entries = [MatchExplanation.Entry]()
        let winnerText: String?
        var reason: String?
        if let best, let winner = index.entries[best.id]?.pattern {
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
            guard let pattern = index.entries[failure.id]?.pattern.text else { continue }
            entries.append(.init(pattern: pattern, verdict: .failed(failure.reason)))
        }
        return MatchExplanation(url: url.text, winner: winnerText, reason: reason, entries: entries)
    }
}

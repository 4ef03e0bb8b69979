/// Why a URL opens the route it does, for `match --explain` and the devtools: the slow path beside
/// `RouteSearch`. It walks the same trie in the same order without pruning, binds each pattern's
/// query and fragment through `QueryFragmentMatch` as the search does, and picks the winner by
/// `Precedence`, so it names the route the search opens; the search itself keeps none of this.
struct RouteExplainer {
    /// A route that matched: its id and what its query components scored in this URL.
    private struct Candidate {
        let id: Int
        let query: Precedence.QueryScore
    }

    /// Every candidate and every route reached that failed, in the order the walk met them.
    private struct Walk {
        let literals: [Int32]
        var candidates: [Candidate] = []
        var failures: [(id: Int, reason: String)] = []
    }

    let index: RouteIndex

    func explain(_ url: NavigationURL) throws -> MatchExplanation {
        var walk = Walk(literals: RouteSearch.levels(of: url, in: index.literals))
        if let root = RouteSearch.root(of: url, in: index) { try visit(root, depth: 0, url, &walk) }
        return explanation(url, walk)
    }

    private func visit(_ nodeIndex: Int32, depth: Int, _ url: NavigationURL, _ walk: inout Walk) throws {
        let node = index.nodes[Int(nodeIndex)]
        let remaining = walk.literals.count - depth
        if remaining == 0 {
            for id in index.routes(at: nodeIndex, catchAll: false) { try consider(id, url, &walk) }
            var below = index.routes(at: nodeIndex, catchAll: true)
            for list in [node.firstLiteralChild, node.firstParamChild] {
                var child = list
                while child != TrieNode.none {
                    index.allRoutes(below: child, into: &below)
                    child = index.nodes[Int(child)].nextSibling
                }
            }
            for id in below { walk.failures.append((id, "the URL ends before the pattern does")) }
            return
        }
        for id in index.routes(at: nodeIndex, catchAll: false) {
            walk.failures.append((id, "the URL has \(remaining) more path segment(s) than the pattern"))
        }
        if depth > 0 {
            for id in index.routes(at: nodeIndex, catchAll: true) { try consider(id, url, &walk) }
        }
        let literal = walk.literals[depth]
        if literal != TrieNode.none, let child = index.edges.child(of: nodeIndex, literal: literal) {
            try visit(child, depth: depth + 1, url, &walk)
        }
        let text = RouteSearch.text(at: depth, url)
        var edge = node.firstParamChild
        while edge != TrieNode.none {
            let child = index.nodes[Int(edge)]
            defer { edge = child.nextSibling }
            let type = index.typeSlots[Int(child.label)]
            if try type.convert(text) != nil {
                try visit(edge, depth: depth + 1, url, &walk)
                continue
            }
            var below = [Int]()
            index.allRoutes(below: edge, into: &below)
            let place = depth == 0 ? "host" : "path segment \(depth)"
            for id in below { walk.failures.append((id, "\(place) '\(text)' is not a valid \(type.name)")) }
        }
    }

    private func consider(_ id: Int, _ url: NavigationURL, _ walk: inout Walk) throws {
        guard let pattern = index.records[id].pattern else { return }
        switch try QueryFragmentMatch.bind(pattern, url, index) {
        case .bound(let tail): walk.candidates.append(Candidate(id: id, query: tail.score))
        case .mismatch(let mismatch): walk.failures.append((id, mismatch.reason))
        }
    }

    private func explanation(_ url: NavigationURL, _ walk: Walk) -> MatchExplanation {
        func outranks(_ a: Candidate, _ b: Candidate) -> Bool {
            Precedence.outranks(index.pattern(a.id).precedence, a.query, index.pattern(b.id).precedence, b.query)
        }
        var entries = [MatchExplanation.Entry]()
        let winnerText: String?
        var reason: String?
        let ranked = walk.candidates.sorted(by: outranks)
        if let best = ranked.first {
            let winner = index.pattern(best.id)
            winnerText = winner.text
            entries.append(.init(pattern: winner.text, verdict: .won))
            for loser in ranked.dropFirst() {
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
        for failure in walk.failures where seen.insert(failure.id).inserted {
            guard let pattern = index.records[failure.id].pattern?.text else { continue }
            entries.append(.init(pattern: pattern, verdict: .failed(failure.reason)))
        }
        return MatchExplanation(url: url.text, winner: winnerText, reason: reason, entries: entries)
    }
}

extension QueryFragmentMatch.Mismatch {
    /// The mismatch in words, for the explanation.
    var reason: String {
        switch self {
        case .queryMissing(let key, let expected): return "query '\(key)' is missing (needs '\(expected)')"
        case .queryDiffers(let key, let actual, let expected): return "query '\(key)' is '\(actual)', needs '\(expected)'"
        case .queryNotSingleLiteral(let key, let expected): return "query '\(key)' needs the single value '\(expected)'"
        case .queryNotConvertible(let key, let text, let type): return "query '\(key)' '\(text)' is not a valid \(type)"
        case .queryNotSingleParam(let key, let type): return "query '\(key)' needs a single \(type) value"
        case .fragmentMissing: return "the URL has no fragment"
        case .fragmentDiffers(let fragment, let expected): return "fragment '\(fragment)' is not '\(expected)'"
        case .fragmentNotConvertible(let fragment, let type): return "fragment '\(fragment)' is not a valid \(type)"
        }
    }
}

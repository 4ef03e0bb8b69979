/// Which pattern wins (docs/matching.md, "Which pattern wins"), as one comparable key: the greater key wins.
///
/// The key is computed once per pattern (`Pattern.precedence`, with every query param counted as
/// bound) and completed per URL by what that URL's query bound (`QueryScore`). The fields compare
/// in the order they are declared:
///
/// 1. any pattern beats `*`;
/// 2. host and path specificity: a literal counts 2, a param 1, a catch-all 0;
/// 3. host and path left to right: at the first difference a literal beats a typed param, which
///    beats a string param, which beats a catch-all;
/// 4. the fragment: a pattern with a fragment component beats one without (a URL with a fragment
///    goes to the fragment pattern of the same base), and a literal fragment beats a typed one,
///    which beats a string one;
/// 5. the query, by key and never by position: literal components count 2 and params this URL
///    binds 1 (a param whose key the URL lacks counts 0); then the number of bound typed params;
/// 6. the pattern text that sorts first, the documented last resort.
///
/// Never registration order. The search, the trie's edge order, the search's pruning bound, the
/// tie warnings and the explanations all read this file's rules.
public struct Precedence: Sendable, Hashable, Comparable {
    /// The query's part of the key: what the components of one pattern bound in one URL.
    public struct QueryScore: Sendable, Hashable, Comparable {
        /// Literal components count 2, bound params 1.
        public internal(set) var specificity = 0
        /// Bound params of a type other than `string`.
        public internal(set) var typed = 0

        /// Whether `a` binds less of the query than `b`.
        public static func < (a: QueryScore, b: QueryScore) -> Bool {
            a.specificity != b.specificity ? a.specificity < b.specificity : a.typed < b.typed
        }

        /// Counts one query component that took part in the match (a literal that matched, or a
        /// param the URL bound).
        @inline(__always)
        mutating func add(_ component: Pattern.Component) {
            add(rank: Precedence.rank(of: component))
        }

        /// The same, by the component's rank.
        @inline(__always)
        mutating func add(rank: UInt8) {
            switch rank {
            case Precedence.literalRank: specificity += 2
            case Precedence.stringRank: specificity += 1
            default:
                specificity += 1
                typed += 1
            }
        }
    }

    /// The pattern whose key this is: the key's fields are read from it (its pieces keep each
    /// component's rank), so a key costs nothing to make.
    let pattern: Pattern

    /// Whether the pattern is the default `*`.
    public var isDefault: Bool { pattern.isDefault }
    /// Rule 2.
    public var specificity: Int { pattern.specificity }
    /// Rule 3: per host and path component, `rank(of:)`.
    public var ranks: [UInt8] { pattern.positional.map(pattern.rank) }
    /// Rule 4: 0 without a fragment component, else the fragment's rank + 1.
    public var fragment: UInt8 { pattern.fragmentIndex.map { pattern.rank($0) + 1 } ?? 0 }
    /// Rule 5: for a pattern on its own, every query param counted as bound.
    public var query: QueryScore {
        var score = QueryScore()
        for n in 0..<pattern.queryCount { score.add(rank: pattern.rank(pattern.queryValueIndex(n))) }
        return score
    }
    /// Rule 6.
    public var text: String { pattern.text }

    /// Whether both keys belong to the same pattern.
    public static func == (a: Precedence, b: Precedence) -> Bool { a.pattern == b.pattern }
    /// Hashes the pattern.
    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }

    /// Rule 2's weight of a host or path component.
    static func weight(of component: Pattern.Component) -> Int {
        switch component {
        case .literal: return 2
        case .param(let p): return p.isCatchAll ? 0 : 1
        }
    }

    /// Rule 3's rank: literal 3, typed param 2, string param 1, catch-all 0. The trie tries its
    /// param edges in this order.
    static func rank(of component: Pattern.Component) -> UInt8 {
        switch component {
        case .literal: return literalRank
        case .param(let p): return rank(ofParamType: p.type)
        }
    }

    static func rank(ofParamType type: String) -> UInt8 {
        type == ParamType.pathName ? catchAllRank : (type == ParamType.stringName ? stringRank : typedRank)
    }

    static let literalRank: UInt8 = 3
    static let typedRank: UInt8 = 2
    static let stringRank: UInt8 = 1
    static let catchAllRank: UInt8 = 0

    /// The key of a pattern on its own (every query param bound): the order `routes` lists.
    public static func < (a: Precedence, b: Precedence) -> Bool {
        outranks(b, b.query, a, a.query)
    }

    /// True when `a`, its query scoring `aQuery` in some URL, beats `b` scoring `bQuery` in the same
    /// URL. The whole rule; `<` and the search both come here.
    @inline(__always)
    static func outranks(_ a: Precedence, _ aQuery: QueryScore, _ b: Precedence, _ bQuery: QueryScore) -> Bool {
        if a.isDefault != b.isDefault { return b.isDefault }
        if a.specificity != b.specificity { return a.specificity > b.specificity }
        // `ranks`, compared in place.
        for index in 0..<min(a.pattern.positional.count, b.pattern.positional.count) {
            let ra = a.pattern.rank(index), rb = b.pattern.rank(index)
            if ra != rb { return ra > rb }
        }
        if a.fragment != b.fragment { return a.fragment > b.fragment }
        if aQuery != bQuery { return aQuery > bQuery }
        return a.text < b.text
    }

    /// True when only rule 6 (the text) can tell `a` and `b` apart once their queries score these.
    static func tie(_ a: Precedence, _ aQuery: QueryScore, _ b: Precedence, _ bQuery: QueryScore) -> Bool {
        a.withoutQuery == b.withoutQuery && aQuery == bQuery
    }

    /// The fields that do not depend on the URL's query, text aside: patterns that differ here
    /// never tie.
    struct WithoutQuery: Hashable {
        let isDefault: Bool
        let specificity: Int
        let ranks: [UInt8]
        let fragment: UInt8
    }

    var withoutQuery: WithoutQuery { WithoutQuery(isDefault: isDefault, specificity: specificity, ranks: ranks, fragment: fragment) }

    /// Whether some URL that both patterns match scores their queries the same: every literal key
    /// is present, and each subset of the other keys is tried (up to 2^10 of them).
    static func canTie(_ a: Pattern, _ b: Pattern) -> Bool {
        var required = Set<String>()
        var optional = [String]()
        for component in a.query + b.query {
            if case .literal = component.component { required.insert(component.key) }
        }
        for component in a.query + b.query where !required.contains(component.key) && !optional.contains(component.key) {
            optional.append(component.key)
        }
        let tried = optional.prefix(10)
        func score(_ pattern: Pattern, _ present: Set<String>) -> Precedence.QueryScore {
            var score = Precedence.QueryScore()
            for component in pattern.query where present.contains(component.key) { score.add(component.component) }
            return score
        }
        for subset in 0..<(1 << tried.count) {
            var present = required
            for (bit, key) in tried.enumerated() where subset & (1 << bit) != 0 { present.insert(key) }
            if tie(a.precedence, score(a, present), b.precedence, score(b, present)) { return true }
        }
        return false
    }

    /// Why `loser` lost to `winner` in one URL, in words for `--explain`. Names only components that
    /// both patterns have; where the rule that decided is about one pattern having more, it says so.
    /// `present` tells which query keys the URL has.
    static func reason(loser: Pattern, _ loserQuery: QueryScore, winner: Pattern, _ winnerQuery: QueryScore,
                       present: (String) -> Bool) -> String {
        let l = loser.precedence, w = winner.precedence
        if l.isDefault { return "'*' is used only when nothing else matches" }
        if l.specificity != w.specificity {
            return "host and path specificity \(l.specificity) < \(w.specificity) (literals count 2, params 1, catch-alls 0)"
        }
        for (index, (rl, rw)) in zip(l.ranks, w.ranks).enumerated() where rl != rw {
            let place = index == 0 ? "host" : "path segment \(index)"
            return "equal specificity; at the \(place) \(kindName(rw)) beats \(kindName(rl))"
        }
        if l.fragment != w.fragment {
            if l.fragment == 0 {
                return "equal host and path; the URL has a fragment and the winner's fragment component matches it"
            }
            return "equal host and path; at the fragment \(kindName(w.fragment - 1)) beats \(kindName(l.fragment - 1))"
        }
        if loserQuery != winnerQuery {
            // A key both patterns name and the URL has, where the winner's component counted for more.
            let loserKinds = Dictionary(loser.query.map { ($0.key, $0.component) }, uniquingKeysWith: { a, _ in a })
            for component in winner.query where present(component.key) {
                guard let other = loserKinds[component.key] else { continue }
                let rw = rank(of: component.component), rl = rank(of: other)
                if rw != rl { return "equal host, path and fragment; at the query '\(component.key)' \(kindName(rw)) beats \(kindName(rl))" }
            }
            if loserQuery.specificity != winnerQuery.specificity {
                return "equal host, path and fragment; the query components this URL matched count \(loserQuery.specificity) < \(winnerQuery.specificity) (literals 2, bound params 1)"
            }
            return "equal host, path and fragment; binds \(loserQuery.typed) typed query param(s), the winner \(winnerQuery.typed)"
        }
        return "equal precedence; '\(winner.text)' sorts first (the last resort)"
    }

    static func kindName(_ rank: UInt8) -> String {
        switch rank {
        case literalRank: return "a literal"
        case typedRank: return "a typed param"
        case stringRank: return "a string param"
        default: return "a catch-all"
        }
    }
}

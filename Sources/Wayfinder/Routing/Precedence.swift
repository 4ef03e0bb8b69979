/// "Which pattern wins" (MATCHING.md): specificity, then a left-to-right comparison of component
/// kinds, then the number of query params the URL bound, then the pattern text. Never the order
/// in which routes were registered.
enum Precedence {
    /// True when `a` (binding `aBound` query params) beats `b`.
    static func outranks(_ a: Pattern, _ aBound: Int, _ b: Pattern, _ bBound: Int) -> Bool {
        if a.isDefault != b.isDefault { return b.isDefault }
        if a.specificity != b.specificity { return a.specificity > b.specificity }
        for (ra, rb) in zip(a.ranks, b.ranks) where ra != rb { return ra > rb }
        if aBound != bBound { return aBound > bBound }
        return a.text < b.text
    }

    /// Why `loser` lost to `winner`, in words for `--explain`.
    static func reason(loser: Pattern, _ loserBound: Int, winner: Pattern, _ winnerBound: Int) -> String {
        if loser.isDefault { return "'*' is used only when nothing else matches" }
        if loser.specificity != winner.specificity {
            return "specificity \(loser.specificity) < \(winner.specificity) (literals count 2, params 1, catch-alls 0)"
        }
        for (index, (rl, rw)) in zip(loser.ranks, winner.ranks).enumerated() where rl != rw {
            return "equal specificity; at the \(componentLabel(winner, index)) \(kindName(rw)) beats \(kindName(rl))"
        }
        if loserBound != winnerBound {
            return "equal precedence; binds \(loserBound) query param(s), the winner \(winnerBound)"
        }
        return "equal precedence; '\(winner.text)' sorts first (the last resort)"
    }

    static func kindName(_ rank: UInt8) -> String {
        switch rank {
        case 3: return "a literal"
        case 2: return "a typed param"
        case 1: return "a string param"
        default: return "a catch-all"
        }
    }

    /// Names a component by its position in `orderedComponents`.
    static func componentLabel(_ pattern: Pattern, _ index: Int) -> String {
        if index == 0 { return "host" }
        if index <= pattern.path.count { return "path segment \(index)" }
        let queryIndex = index - 1 - pattern.path.count
        if queryIndex < pattern.query.count { return "query '\(pattern.query[queryIndex].key)'" }
        return "fragment"
    }
}

/// Why a URL opened the route it did: the winner, the candidates that matched but lost (and the
/// rule that decided), and the patterns reached that failed (and where).
public struct MatchExplanation: Sendable {
    /// How one pattern fared.
    public enum Verdict: Sendable, Equatable {
        /// It matched and took precedence.
        case won
        /// It matched, but another pattern took precedence: why.
        case lost(String)
        /// It did not match: why.
        case failed(String)
    }

    /// One pattern and its verdict.
    public struct Entry: Sendable, Equatable {
        /// The pattern's text.
        public let pattern: String
        /// How it fared.
        public let verdict: Verdict
    }

    /// The URL explained.
    public let url: String
    /// The winning pattern, or nil with `reason`.
    public let winner: String?
    /// Why nothing matched, when nothing did.
    public let reason: String?
    /// The winner first, then the losers in precedence order, then the failures.
    public let entries: [Entry]
}

extension MatchExplanation.Entry {
    /// The entry as `match --json --explain` and the devtools write it: pattern, verdict
    /// (won, lost, failed) and, for the last two, the reason.
    public var json: Value {
        switch verdict {
        case .won: return ["pattern": .string(pattern), "verdict": "won"]
        case .lost(let why): return ["pattern": .string(pattern), "verdict": "lost", "reason": .string(why)]
        case .failed(let why): return ["pattern": .string(pattern), "verdict": "failed", "reason": .string(why)]
        }
    }
}

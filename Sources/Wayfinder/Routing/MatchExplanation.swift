/// Why a URL opened the route it did: the winner, the candidates that matched but lost (and the
/// rule that decided), and the patterns reached that failed (and where).
public struct MatchExplanation: Sendable {
    public enum Verdict: Sendable, Equatable {
        case won
        case lost(String)
        case failed(String)
    }

    public struct Entry: Sendable, Equatable {
        public let pattern: String
        public let verdict: Verdict
    }

    public let url: String
    /// The winning pattern, or nil with `reason`.
    public let winner: String?
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

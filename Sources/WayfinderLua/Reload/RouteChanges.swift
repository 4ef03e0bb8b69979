import Wayfinder

/// How one route map differs from another, by pattern: what a hot reload reports.
public struct RouteChanges: Equatable, Sendable {
    /// Patterns the new code has and the old did not.
    public var added: [String] = []
    /// Patterns the old code had and the new does not.
    public var removed: [String] = []
    /// Patterns in both maps whose target, constructor, mode or options differ.
    public var changed: [String] = []

    /// Changes described by hand.
    public init(added: [String] = [], removed: [String] = [], changed: [String] = []) {
        self.added = added
        self.removed = removed
        self.changed = changed
    }

    /// What changed from the routes `old` to the routes `new`.
    public init(from old: [RouteReport], to new: [RouteReport]) {
        let before = Dictionary(old.map { ($0.pattern.text, $0.json) }, uniquingKeysWith: { _, last in last })
        let after = Dictionary(new.map { ($0.pattern.text, $0.json) }, uniquingKeysWith: { _, last in last })
        added = new.map(\.pattern.text).filter { before[$0] == nil }
        removed = old.map(\.pattern.text).filter { after[$0] == nil }
        changed = new.map(\.pattern.text).filter { pattern in
            guard let was = before[pattern] else { return false }
            return was != after[pattern]
        }
    }

    /// Whether nothing changed.
    public var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty }

    /// "routes: 1 added (tt://a), 1 removed (tt://b)", or "routes: no change".
    public var summary: String {
        let parts = [("added", added), ("removed", removed), ("changed", changed)].compactMap { label, patterns in
            patterns.isEmpty ? nil : "\(patterns.count) \(label) (" + patterns.joined(separator: ", ") + ")"
        }
        return "routes: " + (parts.isEmpty ? "no change" : parts.joined(separator: ", "))
    }
}

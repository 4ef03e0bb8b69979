/// Which tests a run selects, as busted's options choose them: `--filter` and `--filter-out` on
/// the full name (plain text, not a Lua pattern), `--tags` and `--exclude-tags` on the `#tag`
/// words of the full name (a block's tags are its tests' tags).
public struct SpecSelection: Sendable, Equatable {
    public var filters: [String]
    public var filtersOut: [String]
    public var tags: [String]
    public var excludedTags: [String]

    public init(filters: [String] = [], filtersOut: [String] = [], tags: [String] = [], excludedTags: [String] = []) {
        self.filters = filters.filter { !$0.isEmpty }
        self.filtersOut = filtersOut.filter { !$0.isEmpty }
        self.tags = tags.filter { !$0.isEmpty }
        self.excludedTags = excludedTags.filter { !$0.isEmpty }
    }

    /// Whether the test with this full name runs: it contains one of the filters (when any) and
    /// none of the filters out, carries one of the tags (when any) and none of the excluded.
    public func selects(_ fullName: String) -> Bool {
        if !filters.isEmpty && !filters.contains(where: { fullName.contains($0) }) { return false }
        if filtersOut.contains(where: { fullName.contains($0) }) { return false }
        let carried = Self.tags(in: fullName)
        if !tags.isEmpty && carried.isDisjoint(with: tags) { return false }
        return carried.isDisjoint(with: excludedTags)
    }

    /// The words after a `#` in a name ("adds #slow #db" carries slow and db), as busted reads tags.
    static func tags(in name: String) -> Set<String> {
        var found = Set<String>()
        var rest = Substring(name)
        while let hash = rest.firstIndex(of: "#") {
            let after = rest[rest.index(after: hash)...]
            let word = after.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
            if !word.isEmpty { found.insert(String(word)) }
            rest = after.dropFirst(word.count)
        }
        return found
    }
}

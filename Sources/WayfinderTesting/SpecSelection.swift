import Wayfinder
import WayfinderLua

/// Which tests a run selects, as busted's options choose them: `--filter` and `--filter-out` on
/// the full name (Lua patterns, as busted's: `^Array` selects the names starting with Array),
/// `--tags` and `--exclude-tags` on the `#tag` words of the full name (a block's tags are its
/// tests' tags).
package struct SpecSelection: Sendable, Equatable {
    package var filters: [String]
    package var filtersOut: [String]
    package var tags: [String]
    package var excludedTags: [String]

    package init(filters: [String] = [], filtersOut: [String] = [], tags: [String] = [], excludedTags: [String] = []) {
        self.filters = filters.filter { !$0.isEmpty }
        self.filtersOut = filtersOut.filter { !$0.isEmpty }
        self.tags = tags.filter { !$0.isEmpty }
        self.excludedTags = excludedTags.filter { !$0.isEmpty }
    }

    /// Whether the test with this full name runs: it matches one of the filters (when any) and
    /// none of the filters out, carries one of the tags (when any) and none of the excluded.
    /// `find(name, pattern)` is Lua's string.find, run where the spec runs (so with its budget).
    package func selects(_ fullName: String, find: (String, String) -> Bool) -> Bool {
        if !filters.isEmpty && !filters.contains(where: { find(fullName, $0) }) { return false }
        if filtersOut.contains(where: { find(fullName, $0) }) { return false }
        let carried = Self.tags(in: fullName)
        if !tags.isEmpty && carried.isDisjoint(with: tags) { return false }
        return carried.isDisjoint(with: excludedTags)
    }

    /// Refuses a filter that is not a Lua pattern (`[unclosed`), naming it, before any spec runs.
    package func checkPatterns(limits: LuaLimits = .standard) throws(ScriptError) {
        let state = try LuaState(limits: limits)
        let answer = try state.run(source: "return function(pattern) return string.find('', pattern) end", chunkName: "=filter")
        guard case .handle(let find)? = answer.first else { return }
        for (option, patterns) in [("--filter", filters), ("--filter-out", filtersOut)] {
            for pattern in patterns {
                do {
                    try state.call(find, [.string(pattern)])
                } catch {
                    throw ScriptError(kind: .runtime, message: "\(option) '\(pattern)' is not a Lua pattern: \(error.message)")
                }
            }
        }
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

/// The public operations under way on a navigator: how deeply they are nested (a mode-none
/// target navigates inside its own open) and the restored entries they made, so that a failed
/// one can unmake them again. Not generic, so that keeping it costs an operation nothing to
/// look up in the navigator's unspecialized code.
struct OperationsUnderWay {
    /// A restored entry made during an operation, and what it was restored from.
    struct MadeEntry {
        /// The `NavigationEntry`, untyped.
        let entry: AnyObject
        let pending: PendingEntry?
    }

    private var depth = 0
    private var made: [MadeEntry] = []

    /// Starts one; the mark to hand `takeMade(since:)` if it fails.
    mutating func begin() -> Int {
        depth += 1
        return made.count
    }

    /// Ends one; true when it was the outermost (nothing is under way any more).
    mutating func end() -> Bool {
        depth -= 1
        guard depth == 0 else { return false }
        if !made.isEmpty { made.removeAll() }
        return true
    }

    mutating func noteMade(_ entry: AnyObject, pending: PendingEntry?) {
        made.append(MadeEntry(entry: entry, pending: pending))
    }

    /// The entries made since `mark`, latest first, forgotten here.
    mutating func takeMade(since mark: Int) -> [MadeEntry] {
        guard made.count > mark else { return [] }
        defer { made.removeSubrange(mark...) }
        return made[mark...].reversed()
    }
}

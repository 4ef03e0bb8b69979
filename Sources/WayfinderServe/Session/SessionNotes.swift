/// What the app said while the session called into it: lines its scripts printed, warnings,
/// URLs it handed outside. The host's hooks add to it; the session turns them into events once
/// the call is over.
final class SessionNotes {
    private(set) var items: [(kind: SessionEvent.Kind, text: String)] = []
    private(set) var leftOut = 0

    /// Past this many in one call, the rest are counted, not kept: a script printing in a loop
    /// cannot grow the log without end.
    static let limit = 200

    func add(_ kind: SessionEvent.Kind, _ text: String) {
        if items.count < Self.limit { items.append((kind, text)) } else { leftOut += 1 }
    }

    /// Everything noted since the last call, and how many lines were left out.
    func drain() -> (items: [(kind: SessionEvent.Kind, text: String)], leftOut: Int) {
        defer { (items, leftOut) = ([], 0) }
        return (items, leftOut)
    }
}

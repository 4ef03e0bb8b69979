/// The warnings a host gives only once (a value left out of every save): it remembers what it
/// said, at most `limit` bytes of it, since the messages name URLs and keys a script chose. Past
/// that a message is still given, but may be given again.
struct OnceWarnings {
    static let limit = 1 << 20

    private var said = Set<String>()
    private var bytes = 0

    /// Whether `message` should be given now: true the first time (and whenever it could not be
    /// remembered).
    mutating func first(_ message: String) -> Bool {
        guard !said.contains(message) else { return false }
        let size = RetainedCost.text(message)
        if size <= Self.limit - bytes {
            said.insert(message)
            bytes += size
        }
        return true
    }
}

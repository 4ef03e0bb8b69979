
/// Numbers unique in the process, from 1 up: entry ids and observer tokens, which must not be
/// mistaken for another navigator's.
enum UniqueNumber {
    private static let last = Locked(0)

    static func next() -> Int {
        last.withLock { number in
            number += 1
            return number
        }
    }
}

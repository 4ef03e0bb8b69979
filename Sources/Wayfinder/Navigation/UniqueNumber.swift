import Synchronization

/// Numbers unique in the process, from 1 up: entry ids and observer tokens, which must not be
/// mistaken for another navigator's.
enum UniqueNumber {
    private static let last = Atomic<Int>(0)

    static func next() -> Int {
        last.add(1, ordering: .relaxed).newValue
    }
}

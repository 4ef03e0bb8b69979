import Foundation
import Testing
@testable import Wayfinder

/// The lock the package's modules share state through, on every platform (no `Mutex`).
@Suite struct LockedTests {
    private struct Refused: Error, Equatable { let at: Int }

    /// Runs `body` on `count` threads of its own at once; returns when all have finished.
    private func onThreads(_ count: Int, _ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            Thread {
                body()
                done.signal()
            }.start()
        }
        for _ in 0..<count { done.wait() }
    }

    @Test func changesFromManyThreadsAreNeverLost() {
        let counter = Locked(0)
        let threads = 8, rounds = 100_000
        onThreads(threads) {
            for _ in 0..<rounds {
                counter.withLock { $0 += 1 }
            }
        }
        #expect(counter.withLock { $0 } == threads * rounds)
    }

    @Test func aThrownErrorKeepsItsTypeAndWhatWasChangedBeforeIt() {
        let list = Locked([1, 2])
        #expect(throws: Refused(at: 3)) {
            try list.withLock { (values: inout [Int]) throws(Refused) in
                values.append(3)
                throw Refused(at: values.count)
            }
        }
        #expect(list.withLock { $0 } == [1, 2, 3])
    }

    @Test func numbersHandedOutAtOnceAreAllDifferent() {
        let seen = Locked(Set<Int>())
        onThreads(4) {
            for _ in 0..<1_000 {
                let number = UniqueNumber.next()
                seen.withLock { _ = $0.insert(number) }
            }
        }
        #expect(seen.withLock { $0.count } == 4_000)
    }
}

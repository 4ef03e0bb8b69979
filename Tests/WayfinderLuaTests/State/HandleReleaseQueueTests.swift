import Foundation
import Testing
@testable import WayfinderLua

/// The queue of released handle ids, which any thread adds to and the state's thread takes from
/// without the lock while nothing is queued.
@Suite struct HandleReleaseQueueTests {
    @Test func anEmptyQueueGivesNothingAndKeepsGivingNothing() {
        let queue = HandleReleaseQueue()
        #expect(queue.takeAll().isEmpty)
        #expect(queue.takeAll().isEmpty)
    }

    @Test func idsAreTakenOnceEachInTheOrderQueued() {
        let queue = HandleReleaseQueue()
        queue.add(3)
        queue.add(1)
        #expect(queue.takeAll() == [3, 1])
        #expect(queue.takeAll().isEmpty)
        queue.add(7)
        #expect(queue.takeAll() == [7])
    }

    /// Ids queued from other threads while this one keeps taking: each is taken exactly once,
    /// whether it came in before, during or after a take.
    @Test func idsQueuedFromManyThreadsAreNeitherLostNorTakenTwice() {
        let queue = HandleReleaseQueue()
        let threads = 4, perThread = 20_000
        let done = DispatchSemaphore(value: 0)
        for thread in 0..<threads {
            Thread {
                for i in 0..<perThread { queue.add(UInt64(thread * perThread + i)) }
                done.signal()
            }.start()
        }
        var taken = [UInt64]()
        var finished = 0
        while finished < threads {
            taken += queue.takeAll()
            if done.wait(timeout: .now()) == .success { finished += 1 }
        }
        taken += queue.takeAll()
        #expect(taken.count == threads * perThread)
        #expect(Set(taken).count == threads * perThread)
    }
}

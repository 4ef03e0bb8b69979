import Foundation
import Testing
@testable import Wayfinder

/// How old a saved state is when the clock does not agree with the file.
@Suite("Saved state: age")
struct StateAgeTests {
    @Test func aStateSavedInTheFutureCountsAsExpired() {
        let saved = Date(timeIntervalSince1970: 2_000_000_000)
        var state = NavigationState(savedAt: saved, root: .stack([.init(url: "tt://menu/1")]))
        let earlier = saved.addingTimeInterval(-3600)
        #expect(state.isExpired(expiration: 60, now: earlier))
        #expect(state.isExpired(expiration: 60, now: saved.addingTimeInterval(-1)))
        #expect(!state.isExpired(expiration: 60, now: saved), "age zero is not expired")
        #expect(!state.isRestorable(expiration: 60, now: earlier))
        #expect(!state.isExpired(expiration: 0, now: earlier), "0 still never expires")
        // An important entry keeps it, as for any expired state.
        state.root = .stack([.init(url: "tt://menu/1", important: true)])
        #expect(state.isRestorable(expiration: 60, now: earlier))
    }
}

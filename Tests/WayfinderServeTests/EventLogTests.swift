import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

@Suite("event log")
struct EventLogTests {
    func event(_ id: Int) -> SessionEvent {
        SessionEvent(id: id, kind: .open, outcome: .changed, at: Date(), url: "tt://page/\(id)")
    }

    func snapshot(_ label: String) -> EventLog.Snapshot {
        EventLog.Snapshot(screen: .string(label), tree: .string(label), state: nil)
    }

    @Test func anEventShowsTheLatestTreeAtOrBeforeIt() {
        var log = EventLog()
        _ = log.append(event, snapshot: snapshot("first"))
        _ = log.append(event, snapshot: nil)
        _ = log.append(event, snapshot: snapshot("third"))
        #expect(log.snapshot(at: 1)?.tree == "first")
        #expect(log.snapshot(at: 2)?.tree == "first")
        #expect(log.snapshot(at: 3)?.tree == "third")
        #expect(log.snapshot(at: 4) == nil)
        #expect(log.snapshot(at: 0) == nil)
    }

    @Test func pastTheLimitTheOldestGoAndTheTreeInForceStays() {
        var log = EventLog()
        _ = log.append(event, snapshot: snapshot("only"))
        for _ in 1..<(EventLog.limit + 20) { _ = log.append(event, snapshot: nil) }
        #expect(log.events.count == EventLog.limit)
        #expect(log.events.first?.id == 21)
        #expect(log.lastID == EventLog.limit + 20)
        // Event 1 left the log, but its tree is still the one in force at every event kept.
        #expect(log.snapshot(at: 1) == nil)
        #expect(log.snapshot(at: 21)?.tree == "only")
        #expect(log.snapshot(at: EventLog.limit + 20)?.tree == "only")
    }
}

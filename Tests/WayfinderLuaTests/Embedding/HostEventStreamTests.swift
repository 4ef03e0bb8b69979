import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// `host.events`: the events observers hear, as an `AsyncStream` that ends with the host.
@Suite("The host's stream of events")
struct HostEventStreamTests {
    final class Heard {
        var events: [NavigationEvent] = []
    }

    @Test func theStreamHearsWhatObserversHearInOrderAndEndsWhenTheHostGoes() async throws {
        var host: WayfinderHost? = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": WayfinderHostTests.app()])))
        let heard = Heard()
        host?.observe { heard.events.append($0) }
        let stream = try #require(host?.events)
        try host?.launch()
        try host?.open("tt://note/a")
        try host?.open("tt://note/b")
        try host?.back()
        #expect(throws: NavigationError.self) { try host?.open("nowhere://x") }
        try host?.reload(from: try AppSource(sources: ["app.lua": WayfinderHostTests.app(title: "Page")]))
        try host?.relaunch()
        weak let released = host
        host = nil
        #expect(released == nil, "nothing else keeps the host")
        var streamed: [NavigationEvent] = []
        for await event in stream { streamed.append(event) }
        #expect(streamed == heard.events)
        #expect(streamed.count >= 6, "\(streamed.map(\.change))")
        #expect(streamed.last.map { if case .replacedTree(.relaunch) = $0.change { true } else { false } } == true)
    }

    /// A stream made after some events hears only what comes after it; two streams hear the same.
    @Test func eachStreamHearsFromWhenItWasMade() async throws {
        var host: WayfinderHost? = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": WayfinderHostTests.app()])))
        try host?.launch()
        let first = try #require(host?.events)
        try host?.open("tt://note/a")
        let second = try #require(host?.events)
        try host?.open("tt://note/b")
        host = nil
        var firstHeard: [String] = []
        for await event in first { firstHeard.append(event.tree.visible?.url ?? "") }
        var secondHeard: [String] = []
        for await event in second { secondHeard.append(event.tree.visible?.url ?? "") }
        #expect(firstHeard == ["tt://note/a", "tt://note/b"])
        #expect(secondHeard == ["tt://note/b"])
    }

    /// A stream whose consumer stopped is forgotten: its observer goes with the next stream made.
    @Test func aStreamWhoseConsumerStoppedIsForgotten() async throws {
        let host = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": WayfinderHostTests.app()])))
        try host.launch()
        let stream = host.events
        #expect(host.observers.count == 1)
        let consumer = Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        consumer.cancel()
        _ = await consumer.value
        let kept = host.events
        #expect(host.observers.count == 1, "only the new stream's observer is left")
        try host.open("tt://note/a")
        var iterator = kept.makeAsyncIterator()
        #expect(await iterator.next()?.tree.visible?.url == "tt://note/a")
    }
}

/// The events docs/events.md lists for a replaced first screen: a tab is known by its first
/// screen, so replacing a tab's only screen is `.replacedRoot`; a single stack's is a pop and a push.
@Suite("The events of a replaced first screen")
struct ReplacedFirstScreenEventTests {
    static func host(_ app: String) throws -> WayfinderHost {
        let source = WayfinderHostTests.app().replacingOccurrences(of: #"wf.app { name = "notes", root = "tt://note/home" }"#, with: app)
        return try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source])))
    }

    @Test func replacingATabsOnlyScreenReplacesTheRoot() throws {
        let host = try Self.host(#"wf.app { name = "notes", tabs = { "tt://note/a", "tt://note/b" } }"#)
        try host.launch()
        var heard: [NavigationChange] = []
        host.observe { heard.append($0.change) }
        try host.replace("tt://note/c")
        #expect(heard == [.replacedRoot(host.tree.root)], "\(heard)")
        guard case .tabs(let stacks, 0) = host.tree.root else { Issue.record("\(host.tree)"); return }
        #expect(stacks.map { $0.map(\.url) } == [["tt://note/c"], ["tt://note/b"]])
    }

    @Test func replacingASingleStacksOnlyScreenPopsAndPushes() throws {
        let host = try Self.host(#"wf.app { name = "notes", root = "tt://note/a" }"#)
        try host.launch()
        var heard: [NavigationChange] = []
        host.observe { heard.append($0.change) }
        try host.replace("tt://note/c")
        guard let entry = host.tree.visible else { Issue.record("nothing visible"); return }
        #expect(heard == [.popped(count: 1, from: .root), .pushed(entry, onto: .root)], "\(heard)")
    }
}

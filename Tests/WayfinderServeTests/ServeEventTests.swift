import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

/// The event log records what the host reports: each step's navigation events, in order, as
/// the host told them; a step the host reported no change for is "unchanged", whatever it was.
@Suite("serve events from the host")
struct ServeEventTests {
    func changes(_ event: Value?) -> [String] {
        (event?["changes"]?.arrayValue ?? []).compactMap { $0["text"]?.stringValue }
    }

    @Test func eachStepCarriesTheChangesTheHostReported() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        let launch = try #require(welcome.events.first)
        #expect(launch["kind"] == "launch")
        #expect(changes(launch) == ["set the root to 2 tabs"])

        let open = try await page.perform(.open(url: "tt://page/ax", from: nil, title: nil)).events.first
        #expect(changes(open) == ["pushed tt://page/ax onto tab 1"])
        #expect(open?[path: "changes", 0, "change"] == "pushed")
        #expect(open?[path: "changes", 0, "url"] == "tt://page/ax")
        #expect(open?[path: "changes", 0, "where"] == "tab 1")

        // The second tab was never shown: its first screen is made as it is selected.
        let select = try await page.perform(.select(tab: 2)).events.first
        #expect(changes(select) == ["made tt://page/b (tab 2, screen 1)", "selected tab 2"])
        let sheet = try await page.perform(.open(url: "tt://sheet/s", from: nil, title: nil)).events.first
        #expect(changes(sheet) == ["presented tt://sheet/s as modal 1"])
        let tip = try await page.perform(.open(url: "tt://tip/t", from: nil, title: nil)).events.first
        #expect(changes(tip) == ["showed tt://tip/t as the popover"])
        // A push over a popover is the popover closed, then the push, in the host's order.
        let over = try await page.perform(.open(url: "tt://page/a", from: nil, title: nil)).events.first
        #expect(changes(over) == ["closed the popover", "pushed tt://page/a onto modal 1"])
        let back = try await page.perform(.back).events.first
        #expect(back?["outcome"] == "changed")
        #expect(changes(back) == ["popped 1 screen from modal 1"])
        let dismiss = try await page.perform(.dismiss).events.first
        #expect(changes(dismiss) == ["dismissed modal 1"])
    }

    @Test func aStepTheHostReportsNoChangeForIsUnchanged() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        // An external URL and a failed open change nothing, and nothing is reported.
        let call = try await page.perform(.open(url: "tel:555", from: nil, title: nil)).events.first
        #expect(call?["outcome"] == "unchanged")
        #expect(changes(call).isEmpty)
        let broken = try await page.perform(.open(url: "tt://broken/1", from: nil, title: nil)).events.first
        #expect(broken?["outcome"] == "failed")
        #expect(changes(broken).isEmpty)
        let same = try await page.perform(.select(tab: 1)).events.first
        #expect(same?["outcome"] == "unchanged")
    }

    @Test func aReloadAndARestoreAreTheWholeTreeReplaced() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        let launch = try #require(welcome.events.first?["id"]?.intValue)
        _ = try await page.perform(.open(url: "tt://page/ax", from: nil, title: nil))

        try app.write("app.lua", TestApp.source.replacingOccurrences(of: "This is page", with: "Here is page"))
        await session.reload(because: ["app.lua"])
        let reloaded = try #require(try await page.next())
        #expect(changes(reloaded.events.first) == ["replaced the whole tree (reload)"])
        #expect(reloaded.events.first?["outcome"] == "changed")

        let restored = try await page.perform(.restore(event: Int(launch)))
        #expect(restored.events.first?["kind"] == "restore")
        #expect(changes(restored.events.first) == ["replaced the whole tree (restore)"])
        #expect(restored[path: "screen", "visible"] == "tt://page/a")
        #expect(restored[path: "screen", "layers", 0, "screen", "lines", 0] == "Here is page a.")
    }
}

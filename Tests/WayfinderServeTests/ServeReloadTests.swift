import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

@Suite("serve reload")
struct ServeReloadTests {
    @Test func aRefusedReloadIsShownWithItsFileAndLineUntilAGoodOneKeepingTheTree() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        _ = try await page.perform(.open(url: "tt://page/ax", from: nil, title: nil))

        try app.write("app.lua", TestApp.source + "\nthis is not Lua\n")
        await session.reload(because: ["app.lua"])
        let refused = try #require(try await page.next())
        let failure = try #require(refused["failure"]?["message"]?.stringValue)
        #expect(failure.contains("app.lua:24: syntax error"), "\(failure)")
        #expect(refused.events.first?["kind"] == "reload")
        #expect(refused.events.first?["outcome"] == "failed")
        #expect(refused.events.first?["message"]?.stringValue?.hasSuffix("(app.lua)") == true)
        // The app runs on as it was.
        #expect(refused[path: "screen", "visible"] == "tt://page/ax")
        let still = try await page.perform(.back)
        #expect(still[path: "screen", "visible"] == "tt://page/a")
        #expect(still["failure"]?["message"]?.stringValue == failure)
        _ = try await page.perform(.open(url: "tt://page/ax", from: nil, title: nil))

        try app.write("app.lua", TestApp.source.replacingOccurrences(of: "This is page", with: "Here is page"))
        await session.reload(because: ["app.lua"])
        let good = try #require(try await page.next())
        #expect(good["failure"] == .null)
        #expect(good.events.first?["message"]?.stringValue?.hasPrefix("reloaded (app.lua)") == true)
        #expect(good[path: "screen", "visible"] == "tt://page/ax")
        #expect(good[path: "screen", "layers", 0, "stack"]?.arrayValue?.count == 2)
        #expect(good[path: "screen", "layers", 0, "screen", "lines", 0] == "Here is page ax.")
    }

    @Test func anAppThatDoesNotLoadIsServedWithItsErrorUntilASaveLoadsIt() async throws {
        let app = try ScratchDirectory()
        try app.write("app.lua", "local x = \n")
        let session = ServeSession(options: ServeOptions(app: app.path, state: .none), hub: ClientHub())
        let problem = await session.start()
        #expect(problem?.contains("app.lua:2:") == true, "\(problem ?? "")")
        #expect(await !session.isLoaded)
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        #expect(welcome["failure"]?["message"]?.stringValue == problem)
        #expect(welcome[path: "screen", "layers"]?.arrayValue?.isEmpty == true)
        let refused = try await page.perform(.open(url: "tt://page/a", from: nil, title: nil))
        #expect(refused.events.first?["outcome"] == "failed")
        #expect(refused.events.first?["message"]?.stringValue?.hasPrefix("the app is not loaded: ") == true)
        let explain = try await page.perform(.explain(url: "tt://page/a"))
        #expect(explain["type"] == "refused")

        try app.write("app.lua", TestApp.source)
        await session.reload(because: ["app.lua"])
        let loaded = try #require(try await page.next())
        #expect(loaded["failure"] == .null)
        #expect(loaded[path: "screen", "visible"] == "tt://page/a")
        #expect(await session.isLoaded)
    }

    @Test func savingAFileReloadsThroughTheWatcher() async throws {
        let app = try TestApp.make()
        let session = await startedSession(app.path)
        let page = await SessionProbe(session)
        _ = try await page.next()
        let watcher = AppWatcher(app: app.path, session: session)
        defer { watcher.stop() }
        try app.write("app.lua", TestApp.source.replacingOccurrences(of: "This is page", with: "Saved page"))
        let reloaded = try await page.first { $0.events.contains { $0["kind"] == "reload" } }
        #expect(reloaded.events.contains { $0["message"]?.stringValue?.hasPrefix("reloaded (app.lua)") == true })
        #expect(reloaded[path: "screen", "layers", 0, "screen", "lines", 0] == "Saved page a.")
    }
}

import Foundation
import Synchronization
import Testing
import Wayfinder
import WayfinderLua
@testable import WayfinderServe

/// `serve --updates`: the session's host loads the app its updates give in place of the shipped
/// one, and tells them how the launch went.
@Suite("serve with updates")
struct ServeUpdatesTests {
    /// Updates that always give TestApp, and note what the host told them.
    final class FixedUpdates: AppUpdates {
        let heard: Heard
        init(_ heard: Heard) { self.heard = heard }
        func app(shipped: AppSource) -> AppSource {
            heard.add("app(\(shipped.name))")
            return (try? AppSource(sources: ["app.lua": TestApp.source], name: shipped.name)) ?? shipped
        }
        func launchBegins(stateStore: (any StateStore)?) { heard.add("begins") }
        func launchReached() { heard.add("reached") }
        func launchFailed(_ error: Error) { heard.add("failed") }
    }

    final class Heard: Sendable {
        let calls = Mutex<[String]>([])
        func add(_ call: String) { calls.withLock { $0.append(call) } }
    }

    @Test func theSessionServesTheAppItsUpdatesGive() async throws {
        let shipped = try ScratchDirectory()
        try shipped.write("app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://home', wf.controller 'Home')\nwf.app { root = 'tt://home' }\n")
        let heard = Heard()
        var options = ServeOptions(app: shipped.path, state: .none)
        options.updates = { FixedUpdates(heard) }
        let session = ServeSession(options: options, hub: ClientHub())
        let problem = await session.start()
        #expect(problem == nil, "\(problem ?? "")")
        let page = await SessionProbe(session)
        let welcome = try #require(try await page.next())
        #expect(welcome[path: "screen", "visible"] == "tt://page/a")
        #expect(heard.calls.withLock { $0 } == ["app(\(URL(fileURLWithPath: shipped.path).lastPathComponent))", "begins", "reached"])
    }
}

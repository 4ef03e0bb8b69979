import FlyingFox
import Foundation
import Testing
import Wayfinder
import WayfinderLua
@testable import WayfinderServe

/// A render is remembered per entry: one that raises or runs out of its time budget is run and
/// reported once, not again at every push, until its entry or the app changes.
@Suite("serve render memory")
struct ServeRenderMemoryTests {
    static let source = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render() return { title = "Page " .. self.name } end

        local Slow = wf.controller "Slow"
        function Slow:initWithName(name) self.name = name end
        function Slow:render()
          print("rendering slow " .. self.name)
          while true do end
        end

        local Raising = wf.controller "Raising"
        function Raising:initWithName(name) self.name = name end
        function Raising:render()
          print("rendering raising " .. self.name)
          error("cannot draw " .. self.name)
        end

        -- One 64 KiB string as 1,000 lines: 64 MiB once copied.
        local Big = wf.controller "Big"
        local chunk = string.rep("b", 64 << 10)
        function Big:render()
          local lines = {}
          for i = 1, 1000 do lines[i] = chunk end
          return { title = "Big", lines = lines }
        end

        wf.map:from("tt://page/(initWithName:)", Page)
        wf.map:from("tt://big", Big)
        wf.map:from("tt://slow/(initWithName:)", Slow)
        wf.map:from("tt://raising/(initWithName:)", Raising)
        wf.app { name = "render-memory", root = "tt://page/home" }
        """

    /// Every message a page got, in order.
    final class Seen {
        var messages: [Value] = []
        var events: [Value] { messages.flatMap(\.events) }

        func count(kind: String, containing text: String) -> Int {
            events.filter { $0["kind"]?.stringValue == kind && ($0["message"]?.stringValue?.contains(text) ?? false) }.count
        }
    }

    func session(_ app: ScratchDirectory) async -> ServeSession {
        // The time budget is what stops the endless render; it races nothing.
        let options = ServeOptions(app: app.path, limits: LuaLimits(timeBudget: .milliseconds(250)), state: .none)
        let session = ServeSession(options: options, hub: ClientHub())
        await session.start()
        return session
    }

    @Test func aRenderThatHangsIsRunAndReportedOnceWhateverIsPushedOverIt() async throws {
        let app = try ScratchDirectory()
        try app.write("app.lua", Self.source)
        let session = await session(app)
        let page = await SessionProbe(session)
        let seen = Seen()
        seen.messages.append(try #require(try await page.next()))

        seen.messages.append(try await page.perform(.open(url: "tt://slow/s", from: nil, title: nil)))
        #expect(seen.count(kind: "print", containing: "rendering slow s") == 1)
        let failures = seen.events.filter { $0["kind"] == "render" }
        try #require(failures.count == 1)
        #expect(failures[0]["outcome"] == "failed")
        #expect(failures[0]["url"] == "tt://slow/s")
        #expect(failures[0]["message"]?.stringValue?.hasPrefix("render failed: ") == true)
        let shown = try #require(seen.messages.last)
        #expect(shown[path: "screen", "layers", 0, "screen", "problem"]?.stringValue?.hasPrefix("render failed: ") == true)

        // Screens pushed over it, and back to it: it is named by its URL, and not run again.
        for command: ClientCommand in [.open(url: "tt://page/1", from: nil, title: nil), .open(url: "tt://page/2", from: nil, title: nil),
                                       .back, .back, .open(url: "tt://page/3", from: nil, title: nil)] {
            seen.messages.append(try await page.perform(command))
        }
        let last = try #require(seen.messages.last)
        #expect(last[path: "screen", "layers", 0, "stack", 1, "title"] == "tt://slow/s")
        #expect(last[path: "screen", "layers", 0, "screen", "title"] == "Page 3")
        #expect(seen.count(kind: "print", containing: "rendering slow") == 1)
        #expect(seen.events.filter { $0["kind"] == "render" }.count == 1)

        // The app changes: its screens are rendered afresh, and a failure is reported again.
        try app.write("app.lua", Self.source + "\n-- saved again\n")
        await session.reload(because: ["app.lua"])
        seen.messages.append(try #require(try await page.next()))
        seen.messages.append(try await page.perform(.back))
        #expect(seen.count(kind: "print", containing: "rendering slow s") == 2)
        #expect(seen.events.filter { $0["kind"] == "render" }.count == 2)
    }

    @Test func aRenderThatRaisesIsReportedOnceWithItsLineAndTraceback() async throws {
        let app = try ScratchDirectory()
        try app.write("app.lua", Self.source)
        let session = await session(app)
        let page = await SessionProbe(session)
        let seen = Seen()
        seen.messages.append(try #require(try await page.next()))
        for command: ClientCommand in [.open(url: "tt://raising/r", from: nil, title: nil), .open(url: "tt://page/1", from: nil, title: nil),
                                       .back, .open(url: "tt://page/2", from: nil, title: nil), .back] {
            seen.messages.append(try await page.perform(command))
        }
        #expect(seen.count(kind: "print", containing: "rendering raising r") == 1)
        let failures = seen.events.filter { $0["kind"] == "render" }
        try #require(failures.count == 1)
        #expect(failures[0]["message"]?.stringValue?.contains("app.lua:17: cannot draw r") == true, "\(failures[0])")
        #expect(failures[0]["traceback"]?.stringValue?.hasPrefix("stack traceback:") == true)
        // The same entry opened anew (a new entry) is rendered, and reported, again.
        seen.messages.append(try await page.perform(.back))
        seen.messages.append(try await page.perform(.open(url: "tt://raising/r", from: nil, title: nil)))
        #expect(seen.count(kind: "print", containing: "rendering raising r") == 2)
        #expect(seen.events.filter { $0["kind"] == "render" }.count == 2)
    }

    /// A screen is at most 1 MiB when it crosses from Lua: past that its render fails, and the
    /// page is sent the failure, not the text.
    @Test func aScreenPastItsCapIsAFailureNotAMessageOfItsText() async throws {
        let app = try ScratchDirectory()
        try app.write("app.lua", Self.source)
        let session = await session(app)
        let page = await SessionProbe(session)
        _ = try #require(try await page.next())
        let shown = try await page.perform(.open(url: "tt://big", from: nil, title: nil))
        let problem = shown[path: "screen", "layers", 0, "screen", "problem"]?.stringValue ?? ""
        #expect(problem.hasPrefix("render failed: render() of Big: result 1: at lines[") && problem.hasSuffix("more than 1 MiB of text (a screen's cap)"),
                "\(problem.prefix(300))")
        let lines: [Value]? = shown[path: "screen", "layers", 0, "screen", "lines"]?.arrayValue
        #expect(lines?.isEmpty != false, "\(lines?.count ?? 0) lines sent")
    }
}

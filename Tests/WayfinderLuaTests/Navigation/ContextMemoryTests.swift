import Testing
import Wayfinder
@testable import WayfinderLua

/// Values a script stores in contexts live in Swift, outside Lua's allocator: they are charged to
/// the state's memory limit, given back when replaced, removed or their layer is gone, and a set
/// that does not fit fails at the script's line and stores nothing.
@Suite("Context values and the memory limit")
struct ContextMemoryTests {
    static let limits = LuaLimits(memoryBytes: 32 << 20, timeBudget: .seconds(30))

    func host(_ body: String) throws -> AppHost {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "wf = require 'wayfinder'\n" + body)
        return try AppHost(path: directory.path, limits: Self.limits, printSink: { _ in })
    }

    /// The same Lua string stored under many keys costs Lua nothing more, but each copy in Swift
    /// is charged.
    @Test func storingPastTheLimitFailsAtTheScriptsLine() throws {
        let app = try host("big = string.rep('x', 1 << 20)\n")
        let error = failure(app.state, """
            local ctx = wf.context.app
            for i = 1, 1000 do
              ctx:set("k" .. i, big)
            end
            """, chunk: "fill.lua")
        #expect(error?.kind == .runtime)
        #expect(error?.message == "fill.lua:3: memory limit of 32 MiB reached", "\(String(describing: error))")
        #expect(app.state.memoryInUse <= 32 << 20)
        // The set that failed stored nothing; the ones before it stand.
        let stored = try app.state.run(source: """
            local held = {}
            for _, key in ipairs(wf.context.app:keys()) do held[key] = true end
            local n = 0
            while held["k" .. (n + 1)] do n = n + 1 end
            return n, held["k" .. (n + 1)] == nil
            """)
        #expect(stored.count == 2 && stored[1] == true)
        guard case .int(let count) = stored[0] else { Issue.record("\(stored)"); return }
        #expect(count > 5 && count < 32)
        // Removing gives the memory back.
        try app.state.run(source: "for i = 1, 1000 do wf.context.app:remove('k' .. i) end")
        try app.state.run(source: "for i = 1, 10 do wf.context.app:set('again' .. i, big .. i) end")
    }

    @Test func replacingAValueDoesNotAddUp() throws {
        let app = try host("big = string.rep('x', 4 << 20)\n")
        try app.state.run(source: "for i = 1, 100 do wf.context.app:set('k', big .. i) end")
        #expect(try app.state.run(source: "return #wf.context.app:get('k')") == [.int(Int64((4 << 20) + 3))])
    }

    @Test func aDroppedLayerGivesItsValuesBack() throws {
        let app = try host("big = string.rep('x', 4 << 20)\n")
        try app.state.run(source: """
            for i = 1, 50 do
              local layer = wf.context { inner = false }
              layer:set('k', big .. i)
            end
            """)
    }
}

/// An action's query and state stay in Swift with their entry: they are charged to the memory limit
/// while the controller is in the tree, so opening in a loop cannot grow the host past it.
@Suite("Action values and the memory limit")
struct ActionMemoryTests {
    @Test func opensPastTheLimitFailAndLeavingGivesTheMemoryBack() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            wf = require 'wayfinder'
            local Page = wf.controller "Page"
            function Page:initWithPage(n) self.n = n end
            wf.map:from("tt://page/(initWithPage:int)", Page)
            wf.app { root = "tt://page/0" }
            big = string.rep("x", 1 << 20)
            """)
        let app = try AppHost(path: directory.path, limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .seconds(30)), printSink: { _ in })
        try app.launch()
        let result = try app.state.run(source: """
            local opened, reason = 0
            for i = 1, 100 do
              local ok, err = wf.navigator:open { url = "tt://page/" .. i, query = { big = big } }
              if not ok then reason = err break end
              opened = i
            end
            return opened, reason
            """)
        guard result.count == 2, case .int(let opened) = result[0], case .string(let reason) = result[1] else {
            Issue.record("\(result)")
            return
        }
        #expect(opened > 5 && opened < 32)
        #expect(reason.contains("memory limit of 32 MiB reached"), "\(reason)")
        #expect(app.navigator.url == "tt://page/\(opened)")
        for _ in 0..<opened { #expect(try app.navigator.back()) }
        try app.state.collectGarbage()
        #expect(try app.state.run(source: "return (wf.navigator:open { url = 'tt://page/1', query = { big = big } }) ~= nil") == [true])
    }
}

/// Text scripts print or warn leaves Lua's memory; beside the 64 KiB cap on one call, one call from
/// the host into Lua may hand out at most 1 MiB of it.
@Suite("Text handed out in one call")
struct TextPerCallTests {
    @Test func printingInALoopStopsAtTheCap() throws {
        let capturing = try CapturingState()
        let error = failure(capturing.state, "local line = string.rep('x', 60000)\nfor i = 1, 100 do print(line) end", chunk: "p.lua")
        #expect(error?.message == "p.lua:2: print: more than 1024 KiB of text in one call")
        #expect(capturing.printed.count == 17)
        try capturing.state.run(source: "print('again')")
        #expect(capturing.printed.last == "again")
        let warned = failure(capturing.state, "local line = string.rep('x', 60000)\nfor i = 1, 100 do warn(line) end", chunk: "w.lua")
        #expect(warned?.message == "w.lua:2: warn: more than 1024 KiB of text in one call")
    }
}

import Testing
import Wayfinder
@testable import WayfinderLua

/// What the host keeps in Swift for a script (the URLs of the screens it opened, its routes and
/// param types, the titles its screens rendered, its tab lists and settings) is charged to the
/// state's memory limit: a script cannot grow the host past the limit by handing it strings that
/// Lua itself lets go. No time budget runs here: only the memory limit can end these loops.
@Suite("What the host keeps for a script and the memory limit")
struct HostMemoryTests {
    static let limits = LuaLimits(memoryBytes: 16 << 20, timeBudget: .zero)

    func host(_ body: String) throws -> AppHost {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            wf = require 'wayfinder'
            nav = wf.navigator
            pad = string.rep('x', 8000)
            wf.map:from('tt://p/(id)', function() return {} end)
            \(body)
            """)
        return try AppHost(path: directory.path, limits: Self.limits, printSink: { _ in })
    }

    /// Each URL is made anew and let go by Lua; only the host's copies (the entry's URL and its
    /// key) stay. 4,000 of them would hold 64 MB: the loop stops at the limit, at the script's
    /// line, and the open that failed added nothing to the tree.
    @Test func openingLongURLsInALoopStopsAtTheLimit() throws {
        let app = try host("")
        let error = failure(app.state, """
            for i = 1, 4000 do
              local ok, why = nav:open('tt://p/' .. i .. '?pad=' .. pad)
              if not ok then opened = i - 1 error(why) end
            end
            """, chunk: "loop.lua")
        // The copy that does not fit is the entry's, or one the constructor's work asks for then
        // (its context layer), which names the line of the open that made it.
        let expected = #/loop\.lua:3: cannot open 'tt://p/\d+\?pad=x{8000}': (loop\.lua:2: )?memory limit of 16 MiB reached/#
        #expect(error.map { (try? expected.wholeMatch(in: $0.message)) != nil } == true, "\(String(describing: error?.message.suffix(200)))")
        #expect(app.state.memoryInUse <= 16 << 20)
        guard case .int(let depth)? = try app.state.run(source: "return opened").first else { Issue.record("the loop ended"); return }
        #expect(app.navigator.tree.allEntries.count == Int(depth), "the failed open kept nothing")
        #expect(depth > 10 && depth < 1000, "\(depth)")
        // Going back gives the memory back: as many screens open again, but for one (the root
        // stays, and the failed loop's message holds a little of the last one's room).
        try app.state.run(source: "while nav:back() do end")
        try app.state.run(source: "for i = 1, \(depth - 2) do assert(nav:open('tt://p/' .. i .. '?pad=' .. pad)) end")
    }

    /// Routes live in the route table; a pattern string Lua lets go still costs the host.
    @Test func addingRoutesInALoopStopsAtTheLimit() throws {
        let app = try host("")
        let before = app.routes.routes.count
        let error = failure(app.state, """
            local function target() return {} end
            for i = 1, 10000 do
              wf.map:from('tt://r' .. i .. '/' .. pad, target)
              added = i
            end
            """, chunk: "routes.lua")
        #expect(error?.message == "routes.lua:3: memory limit of 16 MiB reached", "\(String(describing: error?.message.prefix(300)))")
        #expect(app.state.memoryInUse <= 16 << 20)
        guard case .int(let added)? = try app.state.run(source: "return added").first else { Issue.record("no route added"); return }
        #expect(added > 10 && added < 10000, "\(added)")
        #expect(app.routes.routes.count == before + Int(added), "the route that did not fit was not added")
        // Removing them gives their charge back.
        try app.state.collectGarbage()
        let full = app.state.memoryInUse
        let removed = try app.state.run(source: """
            local n = 0
            for i = 1, \(added + 1) do if wf.map:remove('tt://r' .. i .. '/' .. pad) then n = n + 1 end end
            return n
            """)
        #expect(removed == [.int(added)])
        try app.state.collectGarbage()
        #expect(full - app.state.memoryInUse >= Int(added) * (1024 + 4 * 8000), "\(full) -> \(app.state.memoryInUse)")
        try app.state.run(source: "local t = function() end for i = 1, \(added / 2) do wf.map:from('tt://s' .. i .. '/' .. pad, t) end")
    }

    /// One Lua string of 1000 KiB (under a screen's cap), rendered as the title of many screens:
    /// each screen's kept title is the host's own copy.
    @Test func renderedTitlesCountAgainstTheLimit() throws {
        let app = try host("""
            title = string.rep('t', 1000 << 10)
            local Titled = wf.controller 'Titled'
            function Titled:render() return { title = title } end
            wf.map:from('tt://titled/(id)', Titled)
            """)
        var failed: ScriptError?
        for i in 1...40 {
            try app.navigator.open("tt://titled/\(i)")
            guard let controller = app.navigator.top else { Issue.record("nothing opened"); return }
            do {
                _ = try app.bridge.render(controller)
            } catch {
                failed = error
                break
            }
        }
        #expect(failed?.kind == .memory, "\(String(describing: failed))")
        // The screen's crossing, or the kept title's charge, stops at the limit.
        #expect(failed?.message.hasSuffix("memory limit of 16 MiB reached") == true, "\(String(describing: failed))")
        #expect(app.state.memoryInUse <= 16 << 20)
    }

    /// A tab list is charged in place of the one it replaces; one that does not fit is not set.
    @Test func aTabListThatDoesNotFitIsNotSet() throws {
        let app = try host("")
        try app.state.run(source: "assert(nav:tabs { 'tt://p/1', 'tt://p/2' })")
        let error = failure(app.state, """
            local urls = {}
            for i = 1, 600 do urls[i] = 'tt://p/' .. i .. '?pad=' .. pad end
            local ok, why = nav:tabs(urls)
            if not ok then error(why) end
            """, chunk: "tabs.lua")
        #expect(error?.message == "tabs.lua:4: memory limit of 16 MiB reached", "\(String(describing: error?.message.prefix(300)))")
        #expect(app.navigator.tree.allEntries.map(\.url) == ["tt://p/1", "tt://p/2"])
        // Lists that fit replace each other without adding up.
        try app.state.run(source: """
            for round = 1, 20 do
              local urls = {}
              for i = 1, 50 do urls[i] = 'tt://p/' .. i .. '?pad=' .. pad .. round end
              assert(nav:tabs(urls))
            end
            """)
    }

    /// A moved route keeps both patterns in the table of moves for as long as the app runs:
    /// charged like a route; the same old pattern again replaces its move and its charge; one that
    /// does not fit is refused at the script's line and not added.
    @Test func movedRoutesAreCharged() throws {
        let app = try host("long = string.rep('m', 64 << 10)")
        try app.state.collectGarbage()
        let before = app.state.memoryInUse
        try app.state.run(source: "assert(wf.map:moved('tt://old/' .. long, 'tt://p/1'))")
        try app.state.collectGarbage()
        let moved = app.state.memoryInUse
        #expect(moved - before >= 4 * (64 << 10), "\(before) -> \(moved)")
        try app.state.run(source: "for round = 2, 10 do assert(wf.map:moved('tt://old/' .. long, 'tt://p/' .. round)) end")
        try app.state.collectGarbage()
        #expect(abs(app.state.memoryInUse - moved) < 16 << 10, "\(moved) -> \(app.state.memoryInUse)")
        #expect(app.navigator.moves.moves.count == 1)
        // Four times a 3 MiB pattern does not fit beside it in 16 MiB.
        let error = failure(app.state, "local huge = string.rep(long, 48)\nwf.map:moved('tt://huge/' .. huge, 'tt://p/1')", chunk: "moves.lua")
        #expect(error?.message == "moves.lua:2: memory limit of 16 MiB reached", "\(String(describing: error?.message.prefix(200)))")
        #expect(app.navigator.moves.moves.count == 1)
        #expect(app.state.memoryInUse <= 16 << 20)
    }

    /// The open a guard keeps waiting holds its URL, query and state in the host until it opens or
    /// is dropped: charged as a screen's entry while it waits; one that does not fit is dropped.
    @Test func theWaitingOpenIsCharged() throws {
        final class Warnings { var lines: [String] = [] }
        let warnings = Warnings()
        let app = try host("""
            wf.map:from('tt://locked/(id)', function() return {} end, { guard = function() return false end })
            big = string.rep('b', 1 << 20)
            """)
        app.warn = { warnings.lines.append($0) }
        try app.state.collectGarbage()
        let before = app.state.memoryInUse
        #expect(try app.state.run(source: "nav:open { url = 'tt://locked/1', state = { big = big } } return nav:pending().url") == ["tt://locked/1"])
        try app.state.collectGarbage()
        let waiting = app.state.memoryInUse
        #expect(waiting - before >= 1 << 20, "\(before) -> \(waiting)")
        // Another open waiting replaces it, and its charge.
        try app.state.run(source: "for i = 1, 50 do nav:open { url = 'tt://locked/' .. i, state = { big = big } } end")
        try app.state.collectGarbage()
        #expect(abs(app.state.memoryInUse - waiting) < 16 << 10, "\(waiting) -> \(app.state.memoryInUse)")
        #expect(try app.state.run(source: "return nav:drop_pending()") == [true])
        try app.state.collectGarbage()
        #expect(waiting - app.state.memoryInUse >= 1 << 20, "\(waiting) -> \(app.state.memoryInUse)")
        // One whose state does not fit is refused, and nothing is kept: 15 copies in Swift of the
        // one 1 MiB string Lua holds stop at the limit as they are read.
        let refused = try app.state.run(source: """
            local copies = {}
            for i = 1, 15 do copies[i] = big end
            local opened, reason = nav:open { url = 'tt://locked/2', state = copies }
            return opened == nil, reason, nav:pending() == nil
            """)
        #expect(refused.count == 3 && refused[0] == true && refused[2] == true, "\(refused)")
        let reason = refused.count > 1 ? refused[1].stringValue ?? "" : ""
        #expect(reason.hasPrefix("cannot open 'tt://locked/2': state[") && reason.hasSuffix("memory limit of 16 MiB reached"), "\(reason)")
        #expect(warnings.lines.isEmpty, "\(warnings.lines.map { $0.prefix(100) })")
        #expect(app.state.memoryInUse <= 16 << 20)
    }
}

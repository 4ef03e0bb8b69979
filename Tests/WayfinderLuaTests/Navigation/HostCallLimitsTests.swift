import Testing
import Wayfinder
@testable import WayfinderLua

/// The navigator calls into an app from more places than a constructor: a route's guard, a
/// context's observers. Each call runs in the host's coroutine under the state's limits, so a
/// guard or an observer that loops or fills the memory is stopped, and a guard's error names its
/// line, Lua's own memory error included.
@Suite("Guards and observers under the limits")
struct HostCallLimitsTests {
    static let app = """
        wf = require 'wayfinder'
        nav = wf.navigator
        local function hoard()
          local t = {}
          for i = 1, 1e9 do t[i] = string.rep('g', 1024) .. i end
        end
        wf.map:from('tt://home', function() return {} end)
        wf.map:from('tt://hoard', function() return {} end, { guard = function() hoard() end })
        wf.map:from('tt://spin', function() return {} end, { guard = function() while true do end end })
        """

    func host() throws -> AppHost {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app)
        let host = try AppHost(path: directory.path, limits: LuaLimits(memoryBytes: 16 << 20, timeBudget: .milliseconds(200)), printSink: { _ in })
        try host.navigator.open("tt://home")
        return host
    }

    @Test(arguments: [
        ("tt://hoard", ScriptError.Kind.memory, "app.lua:5: memory limit of 16 MiB reached"),
        ("tt://spin", ScriptError.Kind.timeout, "app.lua:9: time budget of 200 ms exceeded"),
    ])
    func aGuardIsHeldToTheLimits(_ url: String, _ kind: ScriptError.Kind, _ message: String) throws {
        let app = try host()
        let before = app.navigator.tree.snapshot
        do {
            try app.navigator.open(url)
            Issue.record("\(url) opened")
        } catch let error as ScriptError {
            #expect(error.kind == kind)
            #expect(error.message == message, "\(error.message)")
            #expect(error.traceback?.contains("app.lua:") == true, "\(error.traceback ?? "")")
        }
        #expect(app.navigator.tree.snapshot == before)
        #expect(app.navigator.pendingOpen == nil)
        #expect(app.state.memoryInUse <= 16 << 20)
        // The app goes on.
        try app.navigator.open("tt://home")
        // From a script, the open answers the memory limit as its reason; the budget, shared by
        // the script's call, stops the script too.
        if kind == .memory {
            #expect(try app.state.run(source: "return select(2, nav:open('\(url)'))") == [.string("cannot open '\(url)': \(message)")])
        } else {
            #expect(failure(app.state, "local ok, why = nav:open('\(url)')\nreturn why", chunk: "script.lua")?.kind == kind)
        }
    }

    /// An observer's error does not fail the set that told it; it is reported as a warning naming
    /// the observer. (The bundled module calls each observer under its own `pcall`, so a memory
    /// error reads as Lua's own.)
    @Test func aContextObserverIsHeldToTheMemoryLimit() throws {
        let app = try host()
        final class Warnings { var lines: [String] = [] }
        let warnings = Warnings()
        app.warn = { warnings.lines.append($0) }
        let answer = try app.state.run(source: """
            local ctx = wf.context.app
            local owner = {}
            ctx:observe('k', owner, function()
              local t = {}
              for i = 1, 1e9 do t[i] = string.rep('o', 1024) .. i end
            end)
            return ctx:set('k', 1)
            """, chunkName: "observe.lua")
        #expect(answer.count <= 1)
        #expect(warnings.lines == ["observer of 'k': not enough memory"], "\(warnings.lines)")
        #expect(app.state.memoryInUse <= 16 << 20)
        #expect(try app.state.run(source: "return wf.context.app:get('k')") == [1])
    }
}

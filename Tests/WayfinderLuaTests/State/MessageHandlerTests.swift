import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// Lua runs an xpcall message handler with hooks off when the error came from a hook, as the time
/// budget's does: whatever the handler does, the budget still stops the call, at the script's line.
@Suite("Message handlers under the time budget")
struct MessageHandlerTests {
    static let handlers: [(String, String)] = [
        ("loops", "function() while true do end end"),
        ("raises", "function(e) error(e) end"),
        ("raises a table", "function() error({}) end"),
        ("recurses", "function(e) local function h(x) return h(x) end return h(e) end"),
        ("calls xpcall again", "function() xpcall(function() while true do end end, function() while true do end end) end"),
        ("loops after catching with pcall", "function() pcall(error) while true do end end"),
    ]

    @Test(arguments: handlers)
    func aHandlerCannotOutrunTheBudget(_ name: String, _ handler: String) throws {
        let state = try makeState(time: .milliseconds(100))
        for body in ["function() while true do end end", "error", "function() error('x') end"] {
            let error = failure(state, "local n = 0\nxpcall(\(body), \(handler))\nwhile true do n = n + 1 end", chunk: "h.lua")
            #expect(error?.kind == .timeout, "\(name) with \(body): \(String(describing: error))")
            #expect(error?.file == "h.lua", "\(name) with \(body): \(String(describing: error))")
            #expect(try state.run(source: "return 1 + 1") == [2])
        }
    }

    @Test func aLoopingHandlerInsideACoroutineIsStopped() throws {
        let state = try makeState(time: .milliseconds(100))
        let error = failure(state, """
            coroutine.wrap(function()
              xpcall(function() while true do end end, function() while true do end end)
            end)()
            """, chunk: "co.lua")
        #expect(error?.kind == .timeout)
        #expect(error?.file == "co.lua")
    }

    @Test func atLoadTimeTheAppIsRefusedWithTheLine() throws {
        let message = try loadFailure("local wf = require 'wayfinder'\nxpcall(function() while true do end end, function() while true do end end)\n",
                                      limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(100)))
        #expect(message?.contains("app.lua:2: time budget of 100 ms exceeded") == true, "\(message ?? "loaded")")
    }

    @Test func insideASpecTheTestFailsAndTheNextRuns() throws {
        let directory = try TemporaryDirectory()
        try directory.write("handler_spec.lua", """
            it("loops in a handler", function()
              xpcall(function() while true do end end, function() while true do end end)
            end)
            it("runs after it", function() assert.is_true(true) end)
            """)
        let result = try WayfinderCLI.run(["test", directory.subpath("handler_spec.lua"), "--time-limit", "100"])
        #expect(result.status == 1)
        #expect(result.lines.last == "1 passed, 1 failed")
        // The budget raises again at the first instruction after xpcall returned: the function's end.
        #expect(result.stdout.contains("handler_spec.lua:3: time budget of 100 ms exceeded"), "\(result.stdout)")
    }

    @Test func xpcallStillWorks() throws {
        let state = try makeState()
        #expect(try state.run(source: "return xpcall(function(a, b) return a + b, 'ok' end, print, 1, 2)") == [true, 3, "ok"])
        #expect(try state.run(source: "return xpcall(error, function(e) return 'handled ' .. e end, 'boom', 0)") == [false, "handled boom"])
        #expect(try state.run(source: """
            local co = coroutine.wrap(function()
              return xpcall(function() local v = coroutine.yield(1) return v * 2 end, print)
            end)
            co()
            return co(21)
            """) == [true, 42])
        #expect(failure(state, "xpcall(print)")?.message.contains("bad argument #2 to 'xpcall'") == true)
    }
}

/// Text a script hands the host through print and warn leaves Lua's memory, where the memory limit
/// cannot count it: each call is capped instead, with an error at the script's line.
@Suite("print and warn text")
struct PrintAndWarnTests {
    @Test func aWarningLongerThanTheCapIsRefused() throws {
        let capturing = try CapturingState(limits: LuaLimits(memoryBytes: 64 << 20, timeBudget: .seconds(5)))
        let error = failure(capturing.state, "local big = string.rep('x', 1 << 20)\nwarn(big, big, big, big)", chunk: "w.lua")
        #expect(error?.message == "w.lua:2: warn: text longer than the limit of 64 KiB")
        #expect(capturing.warnings.isEmpty)
        try capturing.state.run(source: "warn(string.rep('y', 65536))")
        #expect(capturing.warnings.map(\.utf8.count) == [65536])
    }

    @Test func printLongerThanTheCapIsRefused() throws {
        let capturing = try CapturingState()
        let error = failure(capturing.state, "print(string.rep('x', 40000), string.rep('x', 40000))", chunk: "p.lua")
        #expect(error?.message == "p.lua:1: print: text longer than the limit of 64 KiB")
        #expect(capturing.printed.isEmpty)
        try capturing.state.run(source: "print(string.rep('y', 65534), 1)")
        #expect(capturing.printed.map(\.utf8.count) == [65536])
    }
}

/// Errors name the script's own line: a binding reached through the Lua side of the wayfinder
/// module blames the script that called it, and Lua's stack overflows raised inside C functions
/// get the position of the Lua function that was running.
@Suite("Errors name the script's line")
struct ScriptLineTests {
    static let cases: [(String, String)] = [
        ("wf.context.app:set(42, 1)", "app.lua:2: a context key must be a non-empty string, got number"),
        ("wf.codec.query(5)", "app.lua:2: wf.codec.query needs a table, got number"),
        ("wf.navigator:open({})", "app.lua:2: nav:open: the action table needs a url (or a route)"),
        ("local function f() return ('x'):gsub('.', f) end\nf()", "app.lua:2: C stack overflow"),
        ("local t = setmetatable({}, {__tostring = function(s) return tostring(s) end})\nprint(tostring(t))", "app.lua:2: C stack overflow"),
        ("local function f(a, b) table.sort({3, 2, 1}, f) return a < b end\ntable.sort({3, 2, 1}, f)", "app.lua:2: C stack overflow"),
    ]

    @Test(arguments: cases)
    func theMessageNamesTheScript(_ body: String, _ expected: String) throws {
        let message = try loadFailure("wf = require 'wayfinder'\n" + body + "\n")
        #expect(message?.contains(expected) == true, "\(message ?? "loaded")")
    }
}

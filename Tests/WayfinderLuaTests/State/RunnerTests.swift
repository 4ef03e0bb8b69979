import Testing
import Wayfinder
@testable import WayfinderLua

/// Every call from the host runs in a coroutine of the host's (a runner), so that a failed call's
/// stack is still there when its message is made: Lua's own memory error, which no message handler
/// sees, names the script's line. Scripts cannot tell: at the top of a call they are on the main
/// thread as far as the coroutine library says, and a failed call's `<close>` variables are closed
/// with its error as unwinding would.
@Suite("Calls run in the host's coroutines")
struct RunnerTests {
    @Test func aMemoryErrorNamesTheLineThatAllocated() throws {
        let state = try makeState(memory: 4 << 20, time: .seconds(30))
        let error = failure(state, """
            local function grow(t)
              t[#t + 1] = string.rep('y', 4096) .. #t
            end
            local t = {}
            while true do grow(t) end
            """, chunk: "bomb.lua")
        #expect(error?.kind == .memory)
        #expect(error?.message == "bomb.lua:2: memory limit of 4 MiB reached", "\(String(describing: error))")
        #expect(error?.traceback?.contains("bomb.lua:5: in main chunk") == true, "\(String(describing: error?.traceback))")
        #expect(try state.run(source: "return 1") == [1])
        // Caught by the script's own pcall it is still Lua's message, without a position.
        #expect(try state.run(source: "local ok, e = pcall(string.rep, 'x', 8 << 20) return ok, e") == [false, "not enough memory"])
    }

    @Test func atTheTopOfACallTheScriptIsOnTheMainThread() throws {
        let state = try makeState()
        #expect(try state.run(source: "local _, main = coroutine.running() return main, coroutine.isyieldable()") == [true, false])
        #expect(try state.run(source: "return pcall(coroutine.yield, 1)", chunkName: "y.lua") == [false, "attempt to yield from outside a coroutine"])
        #expect(failure(state, "local x = 1\ncoroutine.yield(x)", chunk: "y.lua")?.message == "y.lua:2: attempt to yield from outside a coroutine")
        // Inside a coroutine of the script's own, nothing changes.
        #expect(try state.run(source: """
            local co = coroutine.create(function(a)
              local _, main = coroutine.running()
              local b = coroutine.yield(a + 1, main, coroutine.isyieldable())
              return b * 2
            end)
            local _, first, main, yieldable = coroutine.resume(co, 1)
            local _, second = coroutine.resume(co, 21)
            return first, main, yieldable, second
            """) == [2, false, true, 42])
    }

    @Test func closeVariablesOfAFailedCallGetItsError() throws {
        let state = try makeState()
        let error = failure(state, """
            closed = nil
            local guard <close> = setmetatable({}, { __close = function(_, e) closed = e end })
            error('boom')
            """, chunk: "c.lua")
        #expect(error?.message == "c.lua:3: boom")
        #expect(try state.run(source: "return closed") == ["c.lua:3: boom"])
        // A __close that raises ends the call with its own error, as it would have.
        let replaced = failure(state, """
            local guard <close> = setmetatable({}, { __close = function() error('in close') end })
            error('first')
            """, chunk: "d.lua")
        #expect(replaced?.message == "d.lua:1: in close", "\(String(describing: replaced))")
    }

    /// A call that hit the budget leaves its coroutine behind: the next call still has a budget.
    @Test func theBudgetHoldsAfterACallHitIt() throws {
        let state = try makeState(time: .milliseconds(100))
        for _ in 0..<3 {
            #expect(failure(state, "while true do end")?.kind == .timeout)
        }
        #expect(try state.run(source: "return 1") == [1])
    }
}

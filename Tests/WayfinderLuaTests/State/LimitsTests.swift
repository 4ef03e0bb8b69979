import Testing
import Wayfinder
@testable import WayfinderLua

@Suite("Memory and time limits")
struct LimitsTests {
    /// After hitting a limit, the state still runs code and its stack is where it was.
    func expectUsable(_ state: LuaState) throws {
        #expect(try state.run(source: "local t = {} for i = 1, 100 do t[i] = i end return #t") == [100])
        #expect(state.stackTop == 0)
    }

    @Test func anEndlessLoopStopsAtTheBudget() throws {
        let state = try makeState(time: .milliseconds(100))
        let clock = ContinuousClock()
        let started = clock.now
        let error = failure(state, "local n = 0\nwhile true do n = n + 1 end", chunk: "loop.lua")
        #expect(clock.now - started < .seconds(2))
        #expect(error?.kind == .timeout)
        #expect(error?.message == "loop.lua:2: time budget of 100 ms exceeded")
        #expect(error?.line == 2)
        try expectUsable(state)
    }

    @Test func anEndlessLoopInsideACoroutineStops() throws {
        let state = try makeState(time: .milliseconds(100))
        let wrapped = failure(state, "coroutine.wrap(function() while true do end end)()")
        #expect(wrapped?.kind == .timeout)
        try expectUsable(state)
        // resume catches the coroutine's error, but the main thread is stopped right after.
        let resumed = failure(state, """
            local co = coroutine.create(function() while true do end end)
            local ok = coroutine.resume(co)
            while true do end
            """)
        #expect(resumed?.kind == .timeout)
        try expectUsable(state)
    }

    @Test func catchingTheTimeoutWithPcallDoesNotEscapeIt() throws {
        let state = try makeState(time: .milliseconds(100))
        let error = failure(state, "while true do pcall(function() while true do end end) end")
        #expect(error?.kind == .timeout)
        let nested = failure(state, """
            while true do
              pcall(function() while true do pcall(error, 'x') end end)
            end
            """)
        #expect(nested?.kind == .timeout)
        try expectUsable(state)
    }

    @Test func eachCallGetsAFreshBudget() throws {
        let state = try makeState(time: .milliseconds(150))
        let work = try state.load(source: "local t = os.clock() while os.clock() - t < 0.05 do end return true")
        for _ in 0..<5 { #expect(try state.call(work) == [true]) }
    }

    @Test func aMemoryBombHitsTheLimit() throws {
        let state = try makeState(memory: 8 << 20, time: .seconds(5))
        let baseline = state.memoryInUse
        let error = failure(state, "local t = {} while true do t[#t + 1] = string.rep('x', 1024) end")
        #expect(error?.kind == .memory)
        #expect(error?.message == "memory limit of 8 MiB reached")
        #expect(state.memoryInUse <= 8 << 20)
        try state.collectGarbage()
        #expect(state.memoryInUse < baseline + 64 * 1024)
        try expectUsable(state)
    }

    @Test func aHugeSingleAllocationIsRefused() throws {
        let state = try makeState(memory: 8 << 20)
        #expect(failure(state, "return string.rep('x', 1 << 30)")?.kind == .memory)
        try expectUsable(state)
        // Past 2 GiB string.rep refuses by itself, before asking for memory.
        let tooLarge = failure(state, "return string.rep('x', 1 << 40)")
        #expect(tooLarge?.kind == .runtime)
        #expect(tooLarge?.message.contains("resulting string too large") == true)
        try expectUsable(state)
        // pcall sees the memory error as a value, and the state carries on.
        #expect(try state.run(source: "local ok, e = pcall(string.rep, 'x', 1 << 30) return ok, e") == [false, "not enough memory"])
        try expectUsable(state)
    }

    @Test func valuesFromSwiftCountAgainstTheLimit() throws {
        let state = try makeState(memory: 4 << 20)
        let identity = try state.load(source: "return #...")
        let big = String(repeating: "y", count: 5 << 20)
        do {
            try state.call(identity, [.string(big)])
            Issue.record("a string larger than the limit crossed")
        } catch {
            #expect(error.kind == .memory)
        }
        try expectUsable(state)
    }

    @Test func limitsCanChange() throws {
        let state = try makeState(memory: 4 << 20, time: .milliseconds(100))
        state.limits = LuaLimits(memoryBytes: 2 << 20, timeBudget: .milliseconds(50))
        let error = failure(state, "while true do end")
        #expect(error?.message.contains("time budget of 50 ms exceeded") == true)
        #expect(failure(state, "return string.rep('x', 3 << 20)")?.message == "memory limit of 2 MiB reached")
    }

    @Test func aLoopingCloseMethodIsStoppedToo() throws {
        let state = try makeState(time: .milliseconds(100))
        let error = failure(state, """
            do
              local guard <close> = setmetatable({}, {__close = function() while true do end end})
            end
            """)
        #expect(error?.kind == .timeout)
        try expectUsable(state)
    }
}

import Testing
import Wayfinder
@testable import WayfinderLua

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The calling thread's CPU time in seconds, the clock the time budget reads.
private func threadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

@Suite("Memory and time limits")
struct LimitsTests {
    /// After hitting a limit, the state still runs code and its stack is where it was.
    func expectUsable(_ state: LuaState) throws {
        #expect(try state.run(source: "local t = {} for i = 1, 100 do t[i] = i end return #t") == [100])
        #expect(state.stackTop == 0)
    }

    @Test func anEndlessLoopStopsAtTheBudget() throws {
        let state = try makeState(time: .milliseconds(100))
        let error = failure(state, "local n = 0\nwhile true do n = n + 1 end", chunk: "loop.lua")
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

    static let clocks: [(String, LuaBinding)] = [
        ("cpu", { L in LuaCall.run(L) { _ in [.double(threadCPUSeconds())] } }),
        // Blocks the thread for 300 ms of wall-clock time while using almost no CPU time.
        ("block", { L in LuaCall.run(L) { _ in usleep(300_000); return [] } }),
    ]

    /// Each call spends two thirds of the budget, measured on the budget's own clock, so the calls
    /// together spend twice it: only a budget that starts afresh at each call lets them all finish.
    @Test func eachCallGetsAFreshBudget() throws {
        let state = try makeState(time: .milliseconds(150))
        try state.registerLibrary("test.clocks", Self.clocks)
        let work = try state.load(source: """
            local clocks = require 'test.clocks'
            local t = clocks.cpu() while clocks.cpu() - t < 0.1 do end return true
            """)
        for _ in 0..<3 { #expect(try state.call(work) == [true]) }
    }

    /// The budget is the thread's CPU time: time the thread spends off the CPU (another process
    /// running, or here a blocking call) does not use it up, so a busy machine does not stop a
    /// call early, and a test of the memory limit never races the budget.
    @Test func timeOffTheCPUDoesNotCount() throws {
        let state = try makeState(time: .milliseconds(100))
        try state.registerLibrary("test.clocks", Self.clocks)
        #expect(try state.run(source: """
            local clocks = require 'test.clocks'
            clocks.block()
            local n = 0 for i = 1, 1000 do n = n + i end
            return n
            """) == [500_500])
    }

    @Test func aMemoryBombHitsTheLimit() throws {
        let state = try makeState(memory: 8 << 20, time: .seconds(5))
        let baseline = state.memoryInUse
        let error = failure(state, "local t = {} while true do t[#t + 1] = string.rep('x', 1024) end")
        #expect(error?.kind == .memory)
        // Lua raises its memory error without a position; the host names the script's line.
        #expect(error?.message == "test.lua:1: memory limit of 8 MiB reached")
        #expect(error?.traceback?.contains("test.lua:1: in main chunk") == true, "\(String(describing: error?.traceback))")
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
        #expect(failure(state, "return string.rep('x', 3 << 20)")?.message == "test.lua:1: memory limit of 2 MiB reached")
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

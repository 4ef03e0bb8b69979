import Testing
import Wayfinder
@testable import WayfinderLua

/// What a binding of the outer state drives: a second state, as `wf.testing` drives an app.
private final class InnerState {
    let state: LuaState
    var error: ScriptError?

    init(budget: Duration) throws {
        state = try makeState(time: budget)
    }
}

/// A call into one state made from inside a call into another, on the same thread (a spec's step
/// driving an app), ends by the outer call's deadline at the latest, whatever its own budget.
@Suite("A nested state's call within the caller's budget")
struct NestedBudgetTests {
    static let library: [(String, LuaBinding)] = [
        ("spin", { L in
            LuaCall.run(L) { call in
                guard let inner = call.state.host as? InnerState else { return [] }
                do {
                    try inner.state.run(source: "local n = 0\nwhile true do n = n + 1 end", chunkName: "inner.lua")
                } catch let error as ScriptError {
                    inner.error = error
                }
                return []
            }
        }),
    ]

    /// The inner state's budget is far longer than the outer's, and only a budget can end either
    /// loop: the inner call must end at the outer call's deadline, and says so by naming the
    /// budget that ran out.
    @Test func theInnerCallEndsAtTheOuterDeadline() throws {
        let inner = try InnerState(budget: .seconds(5))
        let outer = try makeState(time: .milliseconds(200))
        outer.host = inner
        try outer.registerLibrary("test.nested", Self.library)
        let error = failure(outer, "local nested = require 'test.nested'\nnested.spin()\nreturn 1", chunk: "outer.lua")
        #expect(inner.error?.kind == .timeout)
        #expect(inner.error?.message == "inner.lua:2: time budget of 200 ms exceeded", "\(String(describing: inner.error))")
        #expect(error?.kind == .timeout)
        #expect(error?.message == "outer.lua:2: time budget of 200 ms exceeded", "\(String(describing: error))")
        // Alone, the inner state has its own budget again, and the outer one too.
        #expect(try inner.state.run(source: "return 1") == [1])
        #expect(try outer.run(source: "return 2") == [2])
    }

    /// A nested state whose own budget ends first keeps it: the outer call goes on.
    @Test func aShorterInnerBudgetStillHolds() throws {
        let inner = try InnerState(budget: .milliseconds(50))
        let outer = try makeState(time: .seconds(20))
        outer.host = inner
        try outer.registerLibrary("test.nested", Self.library)
        #expect(try outer.run(source: "local nested = require 'test.nested'\nnested.spin()\nreturn 'went on'") == ["went on"])
        #expect(inner.error?.message == "inner.lua:2: time budget of 50 ms exceeded", "\(String(describing: inner.error))")
    }
}

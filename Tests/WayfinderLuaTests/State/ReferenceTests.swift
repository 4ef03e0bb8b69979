import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

final class Slot: Sendable {
    private let value: Locked<Value?>
    init(_ value: Value) { self.value = Locked(value) }
    func clear() { value.withLock { $0 = nil } }
}

final class Holder {
    var refs: [LuaRef] = []
}

@Suite("References and handles")
struct ReferenceTests {
    /// Whether Lua collected the value stored weakly under `key`.
    func collected(_ state: LuaState, _ key: String) throws -> Bool {
        try state.collectGarbage()
        return try state.run(source: "return weak['\(key)'] == nil") == [true]
    }

    @Test func aLuaRefKeepsItsValueUntilItGoes() throws {
        let state = try makeState()
        try state.run(source: "weak = setmetatable({}, {__mode = 'v'})")
        let baseline = state.liveReferenceCount
        var ref: LuaRef? = try state.load(source: "local f = function() return 'alive' end weak.f = f return f")
        let function = try state.call(ref!)
        guard case .handle(let handle) = function.first else { Issue.record("no function"); return }
        ref = nil
        // The handle still holds the function.
        #expect(try state.call(handle) == ["alive"])
        #expect(try !collected(state, "f"))
        #expect(state.liveReferenceCount == baseline + 1)
    }

    @Test func releasingALuaRefLetsLuaCollectTheValue() throws {
        let state = try makeState()
        try state.run(source: "weak = setmetatable({}, {__mode = 'v'}) function make() local t = {} weak.t = t return t end")
        let baseline = state.liveReferenceCount
        var held: LuaRef? = try state.load(source: "return function() end")
        #expect(state.liveReferenceCount == baseline + 1)
        held = nil
        #expect(held == nil)
        #expect(state.liveReferenceCount == baseline)
        // A ref made from a binding argument, kept by the embedder.
        let holder = Holder()
        state.host = holder
        try state.registerLibrary("hold", [
            ("hold", { L in
                LuaCall.run(L) { call in
                    (call.state.host as? Holder)?.refs.append(try call.ref(1))
                    return []
                }
            })
        ])
        try state.run(source: "require('hold').hold(make())")
        #expect(try !collected(state, "t"))
        #expect(state.liveReferenceCount == baseline + 1)
        holder.refs.removeAll()
        #expect(state.liveReferenceCount == baseline)
        #expect(try collected(state, "t"))
    }

    @Test func droppedHandlesAreReleasedAtTheNextEntry() throws {
        let state = try makeState()
        try state.run(source: "weak = setmetatable({}, {__mode = 'v'})")
        let handles = state.liveHandleCount
        var value: Value? = try state.run(source: "local obj = setmetatable({}, {}) weak.obj = obj return obj")[0]
        #expect(state.liveHandleCount == handles + 1)
        #expect(try !collected(state, "obj"))
        value = nil
        #expect(value == nil)
        // collected() enters the state, which drains the queue first.
        #expect(try collected(state, "obj"))
        #expect(state.liveHandleCount == handles)
    }

    @Test func handlesDroppedOnAnotherThreadAreReleasedToo() async throws {
        let state = try makeState()
        try state.run(source: "weak = setmetatable({}, {__mode = 'v'})")
        let slot = Slot(try state.run(source: "local f = function() end weak.f = f return f")[0])
        #expect(state.liveHandleCount == 1)
        // The only copy of the handle goes on another thread.
        await Task.detached { slot.clear() }.value
        #expect(try collected(state, "f"))
        #expect(state.liveHandleCount == 0)
    }

    @Test func referencesAndHandlesMayOutliveTheirState() throws {
        var state: LuaState? = try makeState()
        weak let gone = state
        var ref: LuaRef? = try state!.load(source: "return 1")
        var handle: Value? = try state!.run(source: "return function() end")[0]
        state = nil
        // They do not keep the state alive, and know it is gone...
        #expect(gone == nil)
        #expect(ref?.state == nil)
        guard case .handle(let held)? = handle else {
            Issue.record("no handle came back")
            return
        }
        #expect(held.kind == "function")
        // ...and releasing them afterwards has nothing to release: were a release to reach for
        // the freed state, this would crash the test process.
        ref = nil
        handle = nil
    }

    @Test func aHandleCanBeCalledAndComparedByIdentity() throws {
        let state = try makeState()
        let first = try state.run(source: "counter = 0 function bump() counter = counter + 1 return counter end return bump")[0]
        let second = try state.global("bump")
        #expect(first == second)
        guard case .handle(let handle) = first else { Issue.record("not a handle"); return }
        #expect(try state.call(handle) == [1])
        #expect(try state.call(handle) == [2])
        #expect(state.ref(for: handle) != nil)
    }
}

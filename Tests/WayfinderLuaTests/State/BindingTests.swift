import CLua
import Testing
import Wayfinder
@testable import WayfinderLua

/// A Swift object lent to Lua as a userdata.
final class Counter {
    var count = 0
}

@Suite("Swift functions called from Lua")
struct BindingTests {
    static let library: [(String, LuaBinding)] = [
        ("all", { L in
            LuaCall.run(L) { _ in
                [.null, true, 7, 2.5, "text", ["a", ["b": 1]], ["key": [1, 2]]]
            }
        }),
        ("echo", { L in
            LuaCall.run(L) { call in try (1...max(call.count, 1)).map { try call.value($0) } }
        }),
        ("needs_string", { L in
            LuaCall.run(L) { call in [.string(try call.string(1, name: "url"))] }
        }),
        ("needs_int", { L in
            LuaCall.run(L) { call in [.int(try call.int(1, name: "index"))] }
        }),
        ("fail", { L in
            LuaCall.run(L) { call in
                throw ScriptError(kind: .runtime, message: "failed on purpose: \(try call.optionalString(1) ?? "")")
            }
        }),
        ("invoke", { L in
            // Calls a Lua function back with the remaining arguments.
            LuaCall.run(L) { call in
                let function = try call.function(1, name: "callback")
                let args = try (1..<max(call.count, 1)).map { try call.value($0 + 1) }
                return try call.state.call(function, args)
            }
        }),
        ("count", { L in
            LuaCall.run(L) { call in
                let counter = try call.object(1, as: Counter.self, name: "counter")
                counter.count += 1
                return [.int(Int64(counter.count))]
            }
        }),
        ("scalars", { L in
            LuaCall.run(L) { call in
                call.count == 0 ? [] : [.null, true, false, .int(-3), .double(0.5), .null]
            }
        }),
        ("spin", { L in
            LuaCall.run(L) { call in try call.state.run(source: "while true do end", chunkName: "spin.lua") }
        }),
        ("hog", { L in
            LuaCall.run(L) { call in
                try call.state.run(source: "local t = {} while true do t[#t + 1] = {} end", chunkName: "hog.lua")
            }
        }),
        ("direct", { L in
            // Pushes its results itself, with non-raising API only.
            guard let L else { return 0 }
            lua_pushinteger(L, 11)
            lua_pushboolean(L, 1)
            return 2
        }),
    ]

    func makeLibraryState() throws -> LuaState {
        let state = try makeState()
        try state.registerLibrary("test.lib", Self.library)
        try state.run(source: "lib = require 'test.lib'")
        return state
    }

    @Test func resultsOfEveryKindReachLua() throws {
        let state = try makeLibraryState()
        let types = try state.run(source: """
            local n, b, i, d, s, a, m = lib.all()
            return n == nil, b, math.type(i), math.type(d), s, a[2].b, m.key[2], select('#', lib.all())
            """)
        #expect(types == [true, true, "integer", "float", "text", 1, 2, 7])
        #expect(try state.run(source: "return lib.all()") == [.null, true, 7, 2.5, "text", ["a", ["b": 1]], ["key": [1, 2]]])
        #expect(try state.run(source: "return lib.echo('x', {1, {y = 2}})") == ["x", [1, ["y": 2]]])
        #expect(try state.run(source: "return lib.direct()") == [11, true])
        #expect(try state.run(source: "return select('#', lib.scalars(1)), lib.scalars(1)") == [6, .null, true, false, -3, 0.5, .null])
        #expect(try state.run(source: "return select('#', lib.scalars())") == [0])
        #expect(state.stackTop == 0)
    }

    @Test func anArgumentErrorNamesTheCallersFileAndLine() throws {
        let state = try makeLibraryState()
        let error = failure(state, "local x = 1\n\nlib.needs_string(42)", chunk: "app.lua")
        #expect(error?.kind == .runtime)
        #expect(error?.file == "app.lua")
        #expect(error?.line == 3)
        #expect(error?.message == "app.lua:3: bad argument #1 to 'test.lib.needs_string' (url: string expected, got number)")
        #expect(error?.traceback != nil)
        #expect(failure(state, "lib.needs_int(1.5)")?.message.contains("(index: number has no integer representation)") == true)
        #expect(try state.run(source: "return lib.needs_int(3.0)") == [3])
        #expect(failure(state, "lib.needs_string('\\xff')")?.message.contains("not valid UTF-8") == true)
        // Lua code can catch it like any error.
        let caught = try state.run(source: "return pcall(lib.fail, 'why')", chunkName: "catch.lua")
        // Called by pcall (a C function), there is no Lua caller to name, as with Lua's own error().
        #expect(caught == [false, "failed on purpose: why"])
        #expect(state.stackTop == 0)
    }

    @Test func nestedCallsPropagateTheInnermostErrorAndLeakNothing() throws {
        let state = try makeLibraryState()
        try state.run(source: """
            function inner(depth)
              if depth == 0 then lib.fail('innermost') end
              return lib.invoke(inner, depth - 1)
            end
            function outer() return lib.invoke(inner, 3) end
            """, chunkName: "chain.lua")
        let outer = try state.run(source: "return outer")[0]
        guard case .handle(let outerFunction) = outer else { Issue.record("no function"); return }

        func once() {
            do {
                try state.call(outerFunction)
                Issue.record("the chain did not fail")
            } catch {
                #expect(error.kind == .runtime)
                #expect(error.message == "chain.lua:2: failed on purpose: innermost")
                #expect(error.traceback?.contains("test.lib.invoke") == true)
            }
        }
        once()
        try state.collectGarbage()
        let memory = state.memoryInUse
        let references = state.liveReferenceCount
        let handles = state.liveHandleCount
        for _ in 0..<500 { once() }
        try state.collectGarbage()
        #expect(state.stackTop == 0)
        #expect(state.liveReferenceCount == references)
        #expect(state.liveHandleCount == handles)
        #expect(state.memoryInUse < memory + 16 * 1024, "memory grew from \(memory) to \(state.memoryInUse)")
        #expect(state.shim.pointee.ops_len == 0)
        #expect(state.shim.pointee.depth == 0)
    }

    /// The traceback travels beside the message, never inside it: Lua code that catches an error
    /// coming back from a nested call sees the message alone, and the error that ends the outer
    /// call still has the innermost traceback.
    @Test func aNestedCallsTracebackTravelsBesideItsMessage() throws {
        let state = try makeLibraryState()
        try state.run(source: "function deep() error('deep trouble') end", chunkName: "deep.lua")
        let caught = try state.run(source: "return pcall(lib.invoke, deep)", chunkName: "catch.lua")
        #expect(caught == [false, "deep.lua:1: deep trouble"])
        // Caught, then raised again as it came: the innermost traceback, not the rethrow's.
        let error = failure(state, "local ok, message = pcall(lib.invoke, deep)\nerror(message, 0)", chunk: "rethrow.lua")
        #expect(error?.message == "deep.lua:1: deep trouble")
        // The position came with it: deep's frame is gone when the rethrow ends the call.
        #expect(error?.file == "deep.lua" && error?.line == 1)
        #expect(error?.traceback?.hasPrefix("stack traceback:") == true)
        #expect(error?.traceback?.contains("deep.lua:1: in") == true)
        #expect(error?.traceback?.contains("rethrow.lua:2:") == false, "\(error?.traceback ?? "")")
        // A later call's error with the same text is not given that traceback.
        let other = failure(state, "\nerror('deep.lua:1: deep trouble', 0)", chunk: "other.lua")
        #expect(other?.traceback?.contains("deep.lua:1: in") == false)
        #expect(other?.traceback?.contains("other.lua:2:") == true)
        #expect(other?.file == nil && other?.line == nil)
        #expect(state.stackTop == 0)
    }

    @Test func limitsHitInANestedCallStopTheOuterCall() throws {
        let state = try LuaState(limits: LuaLimits(memoryBytes: 8 << 20, timeBudget: .milliseconds(100)))
        try state.registerLibrary("test.lib", Self.library)
        try state.run(source: "lib = require 'test.lib'")
        // The outer script catches the error, yet the shared deadline stops it right after.
        let timeout = failure(state, "pcall(lib.spin) while true do end")
        #expect(timeout?.kind == .timeout)
        #expect(failure(state, "lib.spin()")?.message.hasPrefix("spin.lua:1: time budget of 100 ms exceeded") == true)
        let memory = failure(state, "lib.hog()")
        #expect(memory?.kind == .memory)
        // The nested call's memory error names the line it was raised at, as its budget error does.
        #expect(memory?.message == "hog.lua:1: memory limit of 8 MiB reached")
        #expect(try state.run(source: "return 1") == [1])
        #expect(state.stackTop == 0)
    }

    @Test func nestedCallsReturnValuesThroughEveryLevel() throws {
        let state = try makeLibraryState()
        let results = try state.run(source: """
            local function add(a, b) return a + b, 'sum' end
            return lib.invoke(function(x) return lib.invoke(add, x, 10) end, 5)
            """)
        #expect(results == [15, "sum"])
        #expect(state.stackTop == 0)
    }

    @Test func bindingsWorkInsideCoroutines() throws {
        let state = try makeLibraryState()
        let results = try state.run(source: """
            local co = coroutine.wrap(function(a)
              local b = coroutine.yield(lib.echo(a))
              return lib.invoke(function(x) return x * 2 end, b)
            end)
            return co(1), co(21)
            """)
        #expect(results == [1, 42])
        let error = failure(state, "coroutine.wrap(function() lib.needs_string(nil) end)()", chunk: "co.lua")
        // coroutine.wrap adds its own position in front, as it does for any error.
        #expect(error?.message.hasPrefix("co.lua:1: co.lua:1: bad argument #1 to 'test.lib.needs_string'") == true)
        #expect(state.stackTop == 0)
    }

    @Test func swiftObjectsLiveAsLongAsLuaHoldsThem() throws {
        let state = try makeLibraryState()
        weak var weakCounter: Counter?
        do {
            let counter = Counter()
            weakCounter = counter
            let metatable = try state.makeTable([
                ("__len", { L in LuaCall.run(L) { call in [.int(Int64(try call.object(1, as: Counter.self).count))] } })
            ])
            let object = try state.newObject(counter, metatable: metatable)
            try state.setGlobal("counter", object)
            #expect(state.object(object, as: Counter.self) === counter)
        }
        #expect(weakCounter != nil)
        #expect(try state.run(source: "lib.count(counter) lib.count(counter) return #counter, type(counter)") == [2, "userdata"])
        // The metatable is hidden, so no script can swap its __gc.
        #expect(try state.run(source: "return getmetatable(counter)") == [false])
        #expect(weakCounter?.count == 2)
        let wrong = failure(state, "lib.count({})")
        #expect(wrong?.message.contains("(counter: Counter expected, got table)") == true)
        try state.run(source: "counter = nil")
        try state.collectGarbage()
        try state.collectGarbage()
        #expect(weakCounter == nil)
    }

    @Test func objectsHeldByLuaAreReleasedWhenTheStateCloses() throws {
        weak var weakCounter: Counter?
        do {
            let state = try makeState()
            let counter = Counter()
            weakCounter = counter
            let metatable = try state.makeTable([])
            try state.setGlobal("kept", try state.newObject(counter, metatable: metatable))
        }
        #expect(weakCounter == nil)
    }

    @Test func aBindingMadeAlone() throws {
        let state = try makeState()
        let function = try state.makeFunction({ L in
            LuaCall.run(L) { call in [.string(call.functionName), .int(Int64(call.count))] }
        }, name: "solo")
        #expect(try state.call(function, [1, 2, 3]) == ["solo", 3])
    }
}

import Testing
import Wayfinder
@testable import WayfinderLua

@Suite("Values crossing between Swift and Lua")
struct ValueConversionTests {
    @Test func everyKindRoundTrips() throws {
        let state = try makeState()
        let identity = try state.load(source: "return ...")
        let values: [Value] = [
            .null, .bool(true), .bool(false), .int(0), .int(.max), .int(.min), .double(1.5), .double(-2.25e300),
            .double(.infinity), .string(""), .string("héllo wörld 🌍 日本"), .string("a\u{0}b\u{0}"),
            .array([1, "two", [3.5, ["deep": true]]]),
            .map(["name": "x", "list": [1, 2, 3], "nested": ["a": ["b": ["c": -1]]]]),
            .map([:]), .null,
        ]
        let back = try state.call(identity, values)
        #expect(back == values)
        #expect(state.stackTop == 0)
    }

    @Test func largeValuesCrossBothWays() throws {
        let state = try makeState()
        let identity = try state.load(source: "return ...")
        let rows: [Value] = (0..<5000).map { i in ["id": .int(Int64(i)), "title": .string("row \(i) ✓"), "tags": ["a", "b"]] }
        let big: Value = ["rows": .array(rows), "blob": .string(String(repeating: "z", count: 1 << 20))]
        #expect(try state.call(identity, [big]) == [big])
        #expect(try state.run(source: "local t = {} for i = 1, 20000 do t[i] = {i, tostring(i)} end return t")[0].arrayValue?.count == 20000)
        #expect(state.stackTop == 0)
        #expect(state.shim.pointee.ops_len == 0)
    }

    @Test func integersAndFloatsKeepTheirKind() throws {
        let state = try makeState()
        let results = try state.run(source: "return 1, 1.0, 2^53, 7 // 2, 7 / 2, math.maxinteger, math.mininteger, -0.0")
        #expect(results[0] == .int(1))
        #expect(results[1] == .double(1.0))
        #expect(results[2] == .double(9007199254740992))
        #expect(results[3] == .int(3))
        #expect(results[4] == .double(3.5))
        #expect(results[5] == .int(.max))
        #expect(results[6] == .int(.min))
        guard case .double(let negativeZero) = results[7] else { Issue.record("not a float"); return }
        #expect(negativeZero == 0 && negativeZero.sign == .minus)

        let check = try state.load(source: "local x = ... return math.type(x), 1 / x")
        #expect(try state.call(check, [.double(-0.0)]) == [.string("float"), .double(-.infinity)])
        #expect(try state.call(check, [.int(5)]) == [.string("integer"), .double(0.2)])
        #expect(try state.call(check, [.double(.nan)]).first == .string("float"))
    }

    @Test func tablesBecomeArraysOrMaps() throws {
        let state = try makeState()
        #expect(try state.run(source: "return {10, 20, 30}") == [[10, 20, 30]])
        #expect(try state.run(source: "return {b = 1, a = {c = true}}") == [["a": ["c": true], "b": 1]])
        #expect(try state.run(source: "return {}") == [.map([:])])
        // A table reached twice without a cycle is copied twice.
        #expect(try state.run(source: "local s = {1} return {a = s, b = s}") == [["a": [1], "b": [1]]])
        // Map keys come back sorted, whatever Lua's hash order.
        let keys = try state.run(source: "return {zeta = 1, alpha = 2, mid = 3}")[0].mapValue?.keys
        #expect(keys.map(Array.init) == ["alpha", "mid", "zeta"])
    }

    @Test func stringsWithNulBytesAndUnicodeCrossWithTheirLength() throws {
        let state = try makeState()
        let f = try state.load(source: "local s = ... return #s, s:byte(2), s .. '\\0!'")
        #expect(try state.call(f, ["a\u{0}b"]) == [.int(3), .int(0), .string("a\u{0}b\u{0}!")])
        #expect(try state.run(source: "return utf8.char(233, 0x1F30D)") == [.string("é🌍")])
    }

    @Test func invalidUTF8IsReportedNotRepaired() throws {
        let state = try makeState()
        let error = failure(state, "return 'ok', 'bad \\xff byte'")
        #expect(error?.kind == .conversion)
        #expect(error?.message.contains("result 2") == true)
        #expect(error?.message.contains("not valid UTF-8 (byte 5 of 10)") == true)

        let inTable = failure(state, "return {name = {'x', 'y\\xc3'}}")
        #expect(inTable?.message.contains("at name[2]: string is not valid UTF-8") == true)
        // A lone surrogate, as utf8.char makes it, is not well-formed UTF-8 either.
        #expect(failure(state, "return utf8.char(0xD800)")?.kind == .conversion)
        #expect(failure(state, "return {['k\\xff'] = 1}")?.message.contains("table key string is not valid UTF-8") == true)
        #expect(state.stackTop == 0)
    }

    @Test func tablesThatAreNeitherArrayNorMapAreRefused() throws {
        let state = try makeState()
        #expect(failure(state, "return {[1.5] = 1}")?.message.contains("table key 1.5 (a float) is neither") == true)
        #expect(failure(state, "return {[true] = 1}")?.message.contains("table key true is neither") == true)
        #expect(failure(state, "return {1, 2, x = 1}")?.message.contains("mixes array items and string keys") == true)
        #expect(failure(state, "return {[1] = 1, [3] = 3}")?.message.contains("not a sequence (index 3 with 2 items)") == true)
        #expect(failure(state, "return {[0] = 'zero'}")?.message.contains("not a sequence (index 0") == true)
        #expect(failure(state, "return {a = {b = {[false] = 1}}}")?.message.contains("at a.b: table key false") == true)
        #expect(failure(state, "return {1, 2, 3}")?.kind == nil)
        #expect(state.stackTop == 0)
    }

    @Test func cyclesAndDeepNestingAreRefused() throws {
        let state = try makeState()
        let cycle = failure(state, "local t = {} t.self = t return t")
        #expect(cycle?.kind == .conversion)
        #expect(cycle?.message.contains("at self: table contains itself") == true)
        let nest = "local n = ... local t = {} for i = 2, n do t = {t} end return t"
        let nested = try state.load(source: nest)
        #expect(try state.call(nested, [100]).count == 1)
        do {
            try state.call(nested, [101])
            Issue.record("101 levels converted")
        } catch {
            #expect(error.kind == .conversion)
            #expect(error.message.contains("nested more than 100 levels"))
        }
        // Swift values nested too deep are refused before reaching Lua.
        var deep: Value = 1
        for _ in 0..<101 { deep = [deep] }
        #expect(throws: ScriptError.self) { try state.call(nested, [deep]) }
        #expect(state.stackTop == 0)
    }

    @Test func functionsUserdataThreadsAndObjectsBecomeHandlesThatKeepIdentity() throws {
        let state = try makeState()
        let results = try state.run(source: """
            f = function() return 'called' end
            obj = setmetatable({}, {__index = {kind = 'object'}})
            co = coroutine.create(function() end)
            return f, obj, co, f
            """)
        guard case .handle(let f) = results[0], case .handle(let obj) = results[1], case .handle(let co) = results[2],
            case .handle(let f2) = results[3]
        else {
            Issue.record("expected handles, got \(results)")
            return
        }
        #expect(f.kind == "function")
        #expect(obj.kind == "table")
        #expect(co.kind == "thread")
        #expect(f === f2, "the same Lua value gives the same handle")

        let same = try state.load(source: "local a, b, c = ... return rawequal(a, f), rawequal(b, obj), rawequal(c, co), b.kind")
        #expect(try state.call(same, results) == [true, true, true, "object"])
        #expect(try state.call(f) == ["called"])
        // A handle can travel inside tables too.
        let inside = try state.load(source: "local t = ... return rawequal(t.fn, f) and rawequal(t.list[1], obj)")
        #expect(try state.call(inside, [["fn": results[0], "list": [results[1]]]]) == [true])
    }

    @Test func handlesOfAnotherStateAreRefused() throws {
        let first = try makeState()
        let second = try makeState()
        let function = try first.run(source: "return function() end")[0]
        let identity = try second.load(source: "return ...")
        do {
            try second.call(identity, [function])
            Issue.record("a foreign handle crossed")
        } catch {
            #expect(error.kind == .conversion)
            #expect(error.message.contains("does not belong to this Lua state"))
        }
    }

    @Test func globalsCanBeSetAndRead() throws {
        let state = try makeState()
        try state.setGlobal("config", ["name": "demo", "tabs": [1, 2]])
        #expect(try state.run(source: "return config.name, #config.tabs") == ["demo", 2])
        try state.run(source: "answer = 42")
        #expect(try state.global("answer") == 42)
        #expect(try state.global("missing") == .null)
    }
}

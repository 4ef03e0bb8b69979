import Testing
import Wayfinder
@testable import WayfinderLua

/// Library functions that could loop without running a Lua instruction or allocating (so past both
/// the time budget and the memory limit) are bounded; otherwise they behave as Lua's own.
@Suite("Bounded C functions")
struct BoundedFunctionsTests {
    static let endless: [String] = [
        "return string.rep('', math.maxinteger)",
        "return string.rep('', math.maxinteger, '')",
        "return table.move({}, 1, math.maxinteger - 1, 2)",
        "return table.move({}, 1, math.maxinteger - 1, 2, setmetatable({}, { __newindex = rawequal }))",
        "return table.concat(setmetatable({}, { __index = table.concat }), '', 1, math.maxinteger)",
        "return table.concat(setmetatable({}, { __index = table.concat, __len = function() return math.maxinteger end }))",
        "return table.insert(setmetatable({}, { __len = function() return math.maxinteger - 1 end }), 1, 'x')",
        "return table.remove(setmetatable({}, { __len = function() return math.maxinteger end }), 1)",
        "return table.sort(setmetatable({}, { __len = function() return 2^31 - 2 end, __index = table.concat }))",
    ]

    /// Each finishes at once: with its answer, or refused at the script's line.
    @Test(arguments: endless)
    func endlessWorkIsBounded(_ source: String) throws {
        let state = try makeState(memory: 8 << 20, time: .seconds(100))
        do {
            let result = try state.run(source: source, chunkName: "bounded.lua")
            #expect(result == [""] || result == [], "\(result)")
        } catch {
            #expect(error.kind == .runtime)
            #expect(error.message.hasPrefix("bounded.lua:1: bad argument to '"), "\(error.message)")
            #expect(error.message.contains("elements is longer than the memory limit could hold"), "\(error.message)")
        }
    }

    /// A sort whose comparator is a C function runs no Lua instruction, so the count hook never
    /// sees it: the sort itself asks the budget, and stops at the script's line.
    @Test func sortingThroughMetamethodsIsBoundedInTime() throws {
        let state = try makeState(memory: 64 << 20, time: .milliseconds(200))
        let source = """
            local t = setmetatable({}, { __index = rawlen, __newindex = rawequal, __len = function() return 4000000 end })
            table.sort(t, math.ult)
            """
        #expect(failure(state, source, chunk: "sort.lua")?.message.hasPrefix("sort.lua:2: time budget of 200 ms exceeded") == true)
        #expect(try state.run(source: "return 1") == [1], "the state runs on after the budget error")
    }

    /// The sort's answers: every order a comparator gives, through metamethods as through a plain
    /// table, and a comparator that contradicts itself still ends (in some order).
    @Test func sortingOrdersAsLuasOwn() throws {
        let state = try makeState()
        #expect(try state.run(source: """
            local seed = 7
            local function nextValue() seed = (seed * 1103515245 + 12345) % 2147483648 return seed % 1000 end
            for n = 0, 200 do
              local t, u = {}, {}
              for i = 1, n do t[i] = nextValue() u[i] = t[i] end
              table.sort(t)
              for i = 2, n do assert(t[i - 1] <= t[i], "default order at " .. n) end
              table.sort(u, function(a, b) return a > b end)
              for i = 2, n do assert(u[i - 1] >= u[i], "comparator order at " .. n) end
              for i = 1, n do assert(t[i] == u[n + 1 - i], "same elements at " .. n) end
            end
            local store = {5, 3, 9, 1}
            local proxy = setmetatable({}, { __index = store, __newindex = store, __len = function() return #store end })
            table.sort(proxy)
            local words = {"pear", "apple", "fig"}
            table.sort(words)
            local always = {4, 2, 8, 6, 1}
            table.sort(always, function() return true end)
            table.sort(always, function() return false end)
            return table.concat(store, ","), table.concat(words, ","), #always
            """) == ["1,3,5,9", "apple,fig,pear", 5])
        let failures = [
            ("table.sort({1, 'x', 2})", "b.lua:1: attempt to compare"),
            ("table.sort({2, 1}, 5)", "b.lua:1: bad argument #2 to 'sort' (function expected, got number)"),
            ("table.sort({2, 1}, function() error('no order', 0) end)", "no order"),
            ("table.sort(5)", "b.lua:1: bad argument #1 to 'sort' (table expected, got number)"),
        ]
        for (source, message) in failures {
            #expect(failure(state, source, chunk: "b.lua")?.message.hasPrefix(message) == true, "\(source): \(String(describing: failure(state, source, chunk: "b.lua")?.message))")
        }
    }

    /// What docs/sandbox.md says Lua bounds by itself: a format item's width, and the stack.
    @Test func theOthersAreBoundedByLuaItself() throws {
        let state = try makeState(memory: 16 << 20, time: .seconds(100))
        #expect(try state.run(source: "return #string.format('%99.99f', 1e308) < 500") == [true])
        #expect(failure(state, "return string.format('%100d', 1)", chunk: "f.lua")?.message.contains("invalid conversion") == true)
        #expect(failure(state, "return table.unpack({}, 1, 1e8)", chunk: "f.lua")?.message == "f.lua:1: too many results to unpack")
        #expect(failure(state, "return utf8.codepoint(string.rep('a', 4000000), 1, -1)", chunk: "f.lua")?.message == "f.lua:1: stack overflow (string slice too long)")
        #expect(failure(state, "return string.byte(string.rep('a', 4000000), 1, -1)", chunk: "f.lua")?.message == "f.lua:1: stack overflow (string slice too long)")
        #expect(failure(state, "return select(2, table.unpack({}, 1, 999999))", chunk: "f.lua") != nil)
    }

    @Test func theyBehaveAsLuasOwn() throws {
        let state = try makeState()
        #expect(try state.run(source: "return string.rep('ab', 3, ','), string.rep('x', 0), string.rep('x', -1), string.rep('ab', 2)")
                == ["ab,ab,ab", "", "", "abab"])
        #expect(try state.run(source: "return table.concat({1, 'b', 2.5}, '-'), table.concat({}, 'x'), table.concat({'a','b','c'}, '', 2, 3)")
                == ["1-b-2.5", "", "bc"])
        #expect(try state.run(source: "local t = {1, 2, 3, 4, 5} table.move(t, 1, 3, 2) return t") == [.array([1, 1, 2, 3, 5])])
        #expect(try state.run(source: "local t = {1, 2, 3, 4, 5} table.move(t, 2, 4, 1) return t") == [.array([2, 3, 4, 4, 5])])
        #expect(try state.run(source: "local a = table.move({1, 2}, 1, 2, 3, {9, 9}) return a") == [.array([9, 9, 1, 2])])
        #expect(try state.run(source: """
            local t = {'a', 'c'}
            table.insert(t, 'd') table.insert(t, 2, 'b') table.insert(t, 5, 'e')
            local removed = table.remove(t, 1)
            local last = table.remove(t)
            return removed, last, t, table.remove({}), #t
            """) == ["a", "e", .array(["b", "c", "d"]), .null, 3])
        #expect(try state.run(source: "local t = {3, 1, 2} table.sort(t) local u = {1, 3, 2} table.sort(u, function(a, b) return a > b end) return t, u")
                == [.array([1, 2, 3]), .array([3, 2, 1])])
        let failures = [
            ("table.concat({1, {}, 3})", "b.lua:1: invalid value (at index 2) in table for 'concat'"),
            ("table.insert({1}, 5, 'x')", "b.lua:1: bad argument #2 to 'insert' (position out of bounds)"),
            ("table.insert({1}, 1, 2, 3)", "b.lua:1: wrong number of arguments to 'insert'"),
            ("table.remove({1, 2}, 7)", "b.lua:1: bad argument #2 to 'remove' (position out of bounds)"),
            ("string.rep('x', 1 << 40)", "b.lua:1: resulting string too large"),
            ("table.concat(5)", "b.lua:1: bad argument #1 to 'concat' (table expected, got number)"),
            ("table.move({}, 1, 2)", "b.lua:1: bad argument #4 to 'move' (number expected, got no value)"),
        ]
        for (source, message) in failures {
            #expect(failure(state, source, chunk: "b.lua")?.message == message, "\(source)")
        }
    }
}

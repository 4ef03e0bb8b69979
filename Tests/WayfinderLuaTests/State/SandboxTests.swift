import Testing
import Wayfinder
@testable import WayfinderLua

@Suite("The sandbox scripts run in")
struct SandboxTests {
    @Test func dangerousLibrariesAndFunctionsAreAbsent() throws {
        let state = try makeState()
        let absent = try state.run(source: """
            return io == nil, debug == nil, package == nil, dofile == nil, loadfile == nil,
                   string.dump == nil, os.execute == nil, os.getenv == nil, os.remove == nil,
                   os.exit == nil, require ~= nil
            """)
        #expect(absent == Array(repeating: true, count: 11))
    }

    @Test func theSafeLibrariesArePresent() throws {
        let state = try makeState()
        let types = try state.run(source: """
            return type(string.format), type(table.concat), type(math.floor), type(utf8.char),
                   type(coroutine.wrap), type(os.time), type(os.clock), type(os.date), type(os.date('*t').year)
            """)
        #expect(types == ["function", "function", "function", "function", "function", "function", "function", "function", "number"])
        #expect(try state.run(source: "return ('%d-%s'):format(3, 'x'), #'abc', math.max(1, 9)") == ["3-x", 3, 9])
    }

    @Test func loadRunsTextButRefusesBinaryChunks() throws {
        let state = try makeState()
        #expect(try state.run(source: "return load('return 1 + 1')()") == [2])
        #expect(try state.run(source: "return load('return x', 'chunk', 't', {x = 'env'})()") == ["env"])
        let refused = try state.run(source: """
            local bytecode = '\\27Lua\\84\\0\\25\\147\\13\\10\\26\\10\\4\\8\\8'
            local f1, e1 = load(bytecode)
            local f2, e2 = load(bytecode, 'x', 'b')
            return f1 == nil, e1, f2 == nil, e2
            """)
        #expect(refused[0] == true && refused[2] == true)
        #expect(refused[1].stringValue?.contains("attempt to load a binary chunk") == true)
        #expect(refused[3].stringValue?.contains("attempt to load a binary chunk") == true)
    }

    @Test func printAndWarningsGoToTheirSinks() throws {
        let capture = try CapturingState()
        try capture.state.run(source: "print('a', 1, nil, true, 2.5) print() warn('careful ', 'now')")
        #expect(capture.printed == ["a\t1\tnil\ttrue\t2.5", ""])
        #expect(capture.warnings == ["careful now"])
        try capture.state.run(source: "warn('@off') warn('hidden') warn('@on')")
        #expect(capture.warnings.count == 1)
    }

    @Test func scriptsCannotInstallFinalizers() throws {
        let state = try makeState()
        let error = failure(state, "setmetatable({}, {__gc = function() while true do end end})")
        #expect(error?.message.contains("__gc metamethods are not available to scripts") == true)
        // Not even a placeholder that a function could replace later.
        #expect(failure(state, "setmetatable({}, {__gc = false})")?.message.contains("__gc metamethods are not available to scripts") == true)
        // Otherwise setmetatable behaves as usual.
        #expect(try state.run(source: """
            local mt = {__index = {x = 1}}
            local t = setmetatable({}, mt)
            local locked = setmetatable({}, {__metatable = 'locked'})
            local ok, message = pcall(setmetatable, locked, {})
            return getmetatable(t) == mt, t.x, ok, message, getmetatable(locked)
            """) == [true, 1, false, "cannot change a protected metatable", "locked"])
        #expect(failure(state, "setmetatable(1, {})")?.message.contains("bad argument #1 to 'setmetatable'") == true)
    }

    @Test func scriptsCannotLoadCModulesOrStandardLibrariesThatAreOff() throws {
        let state = try makeState()
        let error = failure(state, "return require 'io'")
        #expect(error?.message.contains("module 'io'") == true)
        #expect(try state.run(source: "return require('string') == string") == [true])
    }
}

import Testing
import Wayfinder
@testable import WayfinderLua

@Suite("Errors from scripts")
struct ErrorTests {
    @Test func aSyntaxErrorNamesTheChunkAndLine() throws {
        let state = try makeState()
        let error = failure(state, "local a = 1\nlocal b = 2\nlocal c = = 3", chunk: "app.lua")
        #expect(error?.kind == .syntax)
        #expect(error?.file == "app.lua")
        #expect(error?.line == 3)
        #expect(error?.message.hasPrefix("app.lua:3: unexpected symbol near '='") == true)
        #expect(error?.traceback == nil)
        #expect(state.stackTop == 0)
    }

    @Test func aRuntimeErrorHasAPositionAndATraceback() throws {
        let state = try makeState()
        let source = """
            local function helper(t)
              return t.missing.field
            end
            local result = helper({})
            return result
            """
        let error = failure(state, source, chunk: "screens/food.lua")
        #expect(error?.kind == .runtime)
        #expect(error?.file == "screens/food.lua")
        #expect(error?.line == 2)
        #expect(error?.message.contains("attempt to index a nil value (field 'missing')") == true)
        #expect(error?.traceback?.hasPrefix("stack traceback:") == true)
        #expect(error?.traceback?.contains("screens/food.lua:2: in") == true)
        #expect(error?.traceback?.contains("screens/food.lua:4: in") == true)
        #expect(state.stackTop == 0)
    }

    /// The message and the traceback come apart by structure: a message that itself holds the
    /// text of a traceback is the script's message, whole.
    @Test func aMessageThatLooksLikeATracebackIsKeptWhole() throws {
        let state = try makeState()
        let text = "first line\nstack traceback:\n\tnot a frame"
        let error = failure(state, "\nerror(\(Value.string(text)), 0)", chunk: "looks.lua")
        #expect(error?.message == text)
        #expect(error?.traceback?.hasPrefix("stack traceback:") == true)
        #expect(error?.traceback?.contains("looks.lua:2: in") == true)
        #expect(error?.traceback?.contains("not a frame") == false)
    }

    /// An error object that is not a string is named after the position it was raised at: by its
    /// __tostring, or by its type when it has none or its __tostring raises or answers no string.
    @Test func errorObjectsThatAreNotStringsAreDescribed() throws {
        let state = try makeState()
        #expect(failure(state, "error({code = 1})")?.message == "test.lua:1: (error object is a table value) { code = 1 }")
        #expect(failure(state, "error({})")?.message == "test.lua:1: (error object is a table value) {}")
        #expect(failure(state, "error({'x', ok = true})")?.message.contains("[1] = \"x\"") == true)
        let many = failure(state, "local t = {} for i = 1, 40 do t[i] = i end error(t)")?.message ?? ""
        #expect(many.hasSuffix(", ... }") && many.components(separatedBy: " = ").count == 17, "\(many)")
        #expect(failure(state, "error(setmetatable({}, {__tostring = function() return 'custom text' end}))")?.message == "test.lua:1: custom text")
        #expect(failure(state, "\nerror(setmetatable({}, {__tostring = function() error('inner') end}))")?.message
            == "test.lua:2: (error object is a table value)")
        #expect(failure(state, "error(setmetatable({}, {__tostring = function() return {} end}))")?.message
            == "test.lua:1: (error object is a table value)")
        #expect(failure(state, "error({setmetatable({}, {__tostring = function() error('inner') end})})")?.message
            == "test.lua:1: (error object is a table value)")
        #expect(failure(state, "local t = setmetatable({}, {__index = function(t, k) error(t) end})\nreturn t.x")?.line == 1)
        #expect(failure(state, "error(42)")?.message == "42")
        #expect(failure(state, "error()")?.message == "test.lua:1: (error object is a nil value)")
        #expect(failure(state, "error('plain', 0)")?.message == "plain")
        #expect(state.stackTop == 0)
    }

    @Test func positionsAreParsedFromMessages() {
        let error = ScriptError(kind: .runtime, message: "[string \"a:b\"]:12: boom: 3: x")
        #expect(error.file == "[string \"a:b\"]")
        #expect(error.line == 12)
        let none = ScriptError(kind: .runtime, message: "no position: here")
        #expect(none.file == nil && none.line == nil)
    }
}

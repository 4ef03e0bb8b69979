import CLua
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

    /// The position comes from where the error was raised, never from the text: `error` and
    /// `assert` keep the frame they name, and an error Lua raises names the failing function's
    /// frame (a C function's caller), so a chunk name that holds ":12:" is named whole, and text
    /// that merely looks like a position names none, even the very line that raised it.
    @Test func positionsComeFromTheStackNotFromTheText() throws {
        let state = try makeState()
        let colons = failure(state, "local x = 1\nlocal y = 2\nerror('boom')", chunk: "a:12:b.lua")
        #expect(colons?.message == "a:12:b.lua:3: boom")
        #expect(colons?.file == "a:12:b.lua" && colons?.line == 3)
        let syntax = failure(state, "local a = 1\nlocal b = = 2", chunk: "c:7:d.lua")
        #expect(syntax?.kind == .syntax && syntax?.message.hasPrefix("c:7:d.lua:2: ") == true)
        #expect(syntax?.file == "c:7:d.lua" && syntax?.line == 2)
        let looks = failure(state, "error('x:3: y', 0)")
        #expect(looks?.message == "x:3: y" && looks?.file == nil && looks?.line == nil)
        // This very chunk's name, at a line no frame is running.
        let elsewhere = failure(state, "\nerror('test.lua:9: y', 0)")
        #expect(elsewhere?.message == "test.lua:9: y" && elsewhere?.file == nil && elsewhere?.line == nil)
        // The line raising it, spelled out in the text of an error raised without a position.
        let spelled = failure(state, "error('test.lua:1: y', 0)")
        #expect(spelled?.message == "test.lua:1: y" && spelled?.file == nil && spelled?.line == nil)
        // Lua's own words for a stack overflow, raised by the script without a position, stay so.
        let words = failure(state, "error('C stack overflow', 0)")
        #expect(words?.message == "C stack overflow" && words?.line == nil)
        let library = failure(state, "local s = 'x'\nreturn s:rep({})")
        #expect(library?.message.hasPrefix("test.lua:2: bad argument #1 to 'rep'") == true && library?.line == 2)
        // error(message, 2) names the caller's line: a frame further out than the raiser's.
        let outer = failure(state, "local function check(v)\n  if not v then error('needs a value', 2) end\nend\n\ncheck(nil)")
        #expect(outer?.message == "test.lua:5: needs a value" && outer?.file == "test.lua" && outer?.line == 5)
        // An object is named by the line it was raised at, whatever its text says.
        let object = failure(state, "\nerror(setmetatable({}, {__tostring = function() return 'x:3: y' end}))")
        #expect(object?.message == "test.lua:2: x:3: y" && object?.file == "test.lua" && object?.line == 2)
        let plain = failure(state, "error(setmetatable({}, {__tostring = function() return 'plain' end}), 0)")
        #expect(plain?.message == "test.lua:1: plain" && plain?.file == "test.lua" && plain?.line == 1)
        // A host error made without Lua's help names none.
        #expect(ScriptError(kind: .runtime, message: "[string \"a:b\"]:12: boom").file == nil)
        #expect(state.stackTop == 0)
    }

    /// The frames cross as records: what each function is, where it runs and what it is called.
    @Test func framesAreRecords() throws {
        let state = try makeState()
        let error = failure(state, "local function helper()\n  error('no')\nend\nhelper()", chunk: "rec.lua")
        let frames = try #require(error?.frames)
        // The call from the host runs the chunk in a runner coroutine: the chunk is its first frame.
        #expect(frames.count == 3, "\(frames)")
        #expect(frames[0] == ScriptError.Frame(source: "=[C]", file: "[C]", what: "C", name: "error", namewhat: "global",
                                              global: "error", defined: -1))
        #expect(frames[1] == ScriptError.Frame(source: "@rec.lua", file: "rec.lua", line: 2, what: "Lua", name: "helper",
                                              namewhat: "local", defined: 1))
        #expect(frames[2] == ScriptError.Frame(source: "@rec.lua", file: "rec.lua", line: 4, what: "main"))
    }

    /// The traceback made from the frames reads as Lua's own (luaL_traceback's) for the same
    /// stack: names from loaded modules, tail calls, and the levels a deep stack leaves out.
    @Test func theTracebackReadsAsLuasOwn() throws {
        let source = """
            local function f(n)
              if n == 0 then error("bottom") end
              return (string.gsub("x", "x", function() return f(n - 1) end))
            end
            local function g() return f(12) end
            g()
            """
        let state = try makeState()
        let ours = try #require(failure(state, source, chunk: "deep.lua")?.traceback)
        // Lua's own, in a plain state: the chunk called from C with debug.traceback as its
        // message handler, so that no frame lies below the chunk's, as none lies below it in the
        // host's coroutine.
        let L = try #require(luaL_newstate())
        defer { lua_close(L) }
        luaL_openlibs(L)
        lua_getglobal(L, "debug")
        lua_getfield(L, -1, "traceback")
        #expect(luaL_loadbufferx(L, source, source.utf8.count, "@deep.lua", "t") == LUA_OK)
        #expect(lua_pcallk(L, 0, 1, -2, 0, nil) == LUA_ERRRUN)
        let handled = String(cString: lua_tolstring(L, -1, nil))
        let theirs = handled.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        let mine = ours.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(theirs.contains { $0.contains("(skipping ") } && theirs.contains { $0.contains("(...tail calls...)") })
        #expect(theirs.contains { $0.contains("in function 'string.gsub'") })
        #expect(Array(mine) == Array(theirs), "\(ours)\n---\n\(handled)")
    }
}

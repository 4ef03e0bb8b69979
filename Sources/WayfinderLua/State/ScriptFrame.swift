import CLua
import CLuaShim
import OrderedCollections
import Wayfinder

extension ScriptError {
    /// One frame of the stack an error unwound, as the message handler records it: the fields of
    /// `lua_getinfo`, by the names `wf_pcall` gives them (CLuaShim.h).
    public struct Frame: Equatable, Sendable {
        /// The chunk name Lua was given ("@app.lua", "=[C]", "=(source)").
        public var source: String
        /// The chunk as messages and tracebacks name it ("app.lua", "[C]").
        public var file: String
        /// The line running in the frame; nil in a C function.
        public var line: Int?
        /// "Lua", "C" or "main" (a chunk's top level).
        public var what: String
        /// The name the function was called by, and what kind of name that is ("global", "local",
        /// "method", "field", "upvalue"), when it had one.
        public var name: String?
        /// What kind of name `name` is ("global", "local", "method", "field", "upvalue").
        public var namewhat: String?
        /// The function's name in a loaded module ("string.gsub"; a base function's own, "error"),
        /// the name a traceback gives it first.
        public var global: String?
        /// The line the function's definition starts at.
        public var defined: Int
        /// Whether the frame was entered by a tail call (the caller's frame is gone).
        public var isTailCall: Bool
        /// How many levels a traceback leaves out just before this frame: a deep stack shows its
        /// innermost and outermost frames, as Lua's own tracebacks do.
        public var skipped: Int

        /// A frame with the given parts.
        public init(source: String, file: String, line: Int? = nil, what: String, name: String? = nil, namewhat: String? = nil,
                    global: String? = nil, defined: Int = 0, isTailCall: Bool = false, skipped: Int = 0) {
            self.source = source
            self.file = file
            self.line = line
            self.what = what
            self.name = name
            self.namewhat = namewhat
            self.global = global
            self.defined = defined
            self.isTailCall = isTailCall
            self.skipped = skipped
        }

        /// The frame's function as a traceback names it.
        public var function: String {
            if let global { return "function '\(global)'" }
            if let namewhat, let name { return "\(namewhat) '\(name)'" }
            if what == "main" { return "main chunk" }
            if what != "C" { return "function <\(file):\(defined)>" }
            return "?"
        }

        /// "stack traceback:" and a line for each frame, in Lua's own words (luaL_traceback's).
        public static func traceback(_ frames: [Frame]) -> String {
            var text = "stack traceback:"
            for frame in frames {
                if frame.skipped > 0 { text += "\n\t...\t(skipping \(frame.skipped) levels)" }
                text += "\n\t" + frame.file + (frame.line.map { ":\($0):" } ?? ":") + " in " + frame.function
                if frame.isTailCall { text += "\n\t(...tail calls...)" }
            }
            return text
        }

        /// The frame as a Lua record of the same fields, for an error raised again from a binding.
        var record: Value {
            var fields: OrderedDictionary<String, Value> = [
                "source": .string(source), "file": .string(file), "what": .string(what), "defined": .int(Int64(defined)),
            ]
            if let line { fields["line"] = .int(Int64(line)) }
            if let name, let namewhat {
                fields["name"] = .string(name)
                fields["namewhat"] = .string(namewhat)
            }
            if let global { fields["global"] = .string(global) }
            if isTailCall { fields["tailcall"] = true }
            if skipped > 0 { fields["skipped"] = .int(Int64(skipped)) }
            return .map(fields)
        }
    }
}

extension LuaState {
    /// The frames the message handler kept (`wf_pcall`'s second value after a failure), read
    /// without raising: only `lua_rawgeti` and `lua_next` on the handler's own tables, no
    /// metamethod, no allocation. Text that is not UTF-8 (a chunk named by such a path) is read
    /// as the message is, repaired. Nil when the value is not a table of frames.
    func frames(at index: Int32, in thread: OpaquePointer) -> [ScriptError.Frame]? {
        guard lua_type(thread, index) == LUA_TTABLE, lua_checkstack(thread, 3) != 0 else { return nil }
        let table = lua_absindex(thread, index)
        var frames: [ScriptError.Frame] = []
        let count = lua_rawlen(thread, table)
        guard count > 0 else { return frames }
        for item in 1...count {
            lua_rawgeti(thread, table, lua_Integer(item))
            defer { wf_pop(thread, 1) }
            guard let frame = frame(at: lua_gettop(thread), in: thread) else { return nil }
            frames.append(frame)
        }
        return frames
    }

    private func frame(at record: Int32, in thread: OpaquePointer) -> ScriptError.Frame? {
        guard lua_type(thread, record) == LUA_TTABLE else { return nil }
        var frame = ScriptError.Frame(source: "?", file: "?", what: "?")
        func text(_ index: Int32) -> String? {
            guard lua_type(thread, index) == LUA_TSTRING else { return nil }
            var length = 0
            let bytes = lua_tolstring(thread, index, &length)
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        func integer(_ index: Int32) -> Int? {
            guard wf_isinteger(thread, index) != 0 else { return nil }
            return Int(exactly: lua_tointegerx(thread, index, nil))
        }
        lua_pushnil(thread)
        while lua_next(thread, record) != 0 {
            defer { wf_pop(thread, 1) }
            guard let key = text(-2) else { continue }
            switch key {
            case "source": frame.source = text(-1) ?? frame.source
            case "file": frame.file = text(-1) ?? frame.file
            case "line": frame.line = integer(-1)
            case "what": frame.what = text(-1) ?? frame.what
            case "name": frame.name = text(-1)
            case "namewhat": frame.namewhat = text(-1)
            case "global": frame.global = text(-1)
            case "defined": frame.defined = integer(-1) ?? 0
            case "tailcall": frame.isTailCall = lua_toboolean(thread, -1) != 0
            case "skipped": frame.skipped = integer(-1) ?? 0
            default: break
            }
        }
        return frame
    }
}

import CLua
import CLuaShim
import Wayfinder

/// The one way Swift enters Lua: `wf_pcall`, with the callee and arguments taken from the stack and
/// from ops written since `start`. The stack is restored whatever happens.
extension LuaState {
    /// With `keepingResults`, the results stay on the stack after `read` returns (a loaded chunk
    /// about to be called); otherwise, and always on failure, the stack is as it was.
    func protectedCall<Result>(
        on thread: OpaquePointer? = nil, start: Int, stackValues: Int32 = 0, keepingResults: Bool = false,
        _ read: (_ thread: OpaquePointer, _ first: Int32, _ count: Int32) throws(ScriptError) -> Result
    ) throws(ScriptError) -> Result {
        let thread = thread ?? activeThread
        let base = lua_gettop(thread) - stackValues
        var count: Int32 = 0
        let status = wf_pcall(thread, start, stackValues, &count)
        guard status == LUA_OK else {
            defer { wf_settop(thread, base) }
            // wf_pcall leaves the message and, beside it, its frames.
            throw scriptError(status: status, thread: thread, at: base + 1, frames: count == 2 ? base + 2 : nil)
        }
        do {
            let result = try read(thread, base + 1, count)
            if !keepingResults { wf_settop(thread, base) }
            return result
        } catch {
            wf_settop(thread, base)
            throw error
        }
    }

    /// Writes ops with `body`, or forgets them when it throws.
    func writingOps(_ body: () throws(ScriptError) -> Void) throws(ScriptError) -> Int {
        let start = shim.pointee.ops_len
        do {
            try body()
        } catch {
            wf_ops_truncate(shim, start)
            throw error
        }
        return start
    }

    /// Names what stopped a call: the limit it hit, a missing module, or the script's own error.
    /// The message is at `index`; its frames, when the message handler kept them, at `frames`; the
    /// position it names is the one the handler found (`error_where`).
    func scriptError(status: Int32, thread: OpaquePointer, at index: Int32, frames framesIndex: Int32? = nil) -> ScriptError {
        if status == WF_STATUS_NOSTACK { return .stackOverflow }
        let text = Self.text(at: index, in: thread)
        let frames = framesIndex.flatMap { self.frames(at: $0, in: thread) }
        // The kind comes from where the error was raised (wf_raise_kind, the message handler),
        // never from its text, and so does the position (error_where), which only a call whose
        // message handler ran has.
        let hit = shim.pointee
        let (file, line) = status == LUA_ERRRUN ? hit.error_where.position : (nil, nil)
        // The host's own refusals (a copy it would keep) were raised with their message at the
        // script's line. Lua's own memory error ("not enough memory") was given the script's line
        // and frames where the call failed (Trampoline.c, "Runners"); it reads as the limit.
        if status == LUA_ERRRUN, hit.error_kind == Int32(WF_KIND_MEMORY) {
            return ScriptError(kind: .memory, message: text, file: file, line: line, frames: frames)
        }
        let reached = "memory limit of \(limits.memoryDescription) reached"
        if status == LUA_ERRRUN, hit.error_kind == Int32(WF_KIND_LUA_MEMORY) {
            let position = file.flatMap { file in line.map { "\(file):\($0): " } } ?? ""
            return ScriptError(kind: .memory, message: position + reached, file: file, line: line, frames: frames)
        }
        if status == LUA_ERRMEM || (hit.hit_memory != 0 && status == LUA_ERRERR) || hit.error_kind == Int32(WF_KIND_LUA_MEMORY) {
            return ScriptError(kind: .memory, message: reached)
        }
        // Once the budget is spent every Lua instruction raises again, so whatever ends the call
        // (the budget's error, or C code such as coroutine.wrap re-raising it with a position)
        // is the budget's.
        if hit.hit_time != 0 { return ScriptError(kind: .timeout, message: text, file: file, line: line, frames: frames) }
        let kind = ScriptError.Kind(raised: hit.error_kind) ?? .runtime
        return ScriptError(kind: kind, message: text, file: file, line: line, frames: frames)
    }

    /// The error value at `index` as text: a string as it is (bytes that are not UTF-8 repaired),
    /// else named by its type.
    static func text(at index: Int32, in thread: OpaquePointer) -> String {
        guard lua_type(thread, index) == LUA_TSTRING else {
            return "(error object is a \(String(cString: lua_typename(thread, lua_type(thread, index)))) value)"
        }
        var length = 0
        let bytes = lua_tolstring(thread, index, &length)
        return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
    }
}

extension wf_where {
    /// The file and line, or nils for no position.
    var position: (file: String?, line: Int?) {
        guard line > 0 else { return (nil, nil) }
        let file = withUnsafeBytes(of: self.file) { bytes in String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self) }
        return (file, Int(line))
    }
}

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
            // wf_pcall leaves the message and, beside it, its traceback.
            throw scriptError(status: status, thread: thread, at: base + 1, traceback: count == 2 ? base + 2 : nil)
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
    /// The message is at `index`; its traceback, when the message handler kept one, at `traceback`.
    func scriptError(status: Int32, thread: OpaquePointer, at index: Int32, traceback tracebackIndex: Int32? = nil) -> ScriptError {
        if status == WF_STATUS_NOSTACK { return .stackOverflow }
        func string(at index: Int32) -> String? {
            guard lua_type(thread, index) == LUA_TSTRING else { return nil }
            var length = 0
            let bytes = lua_tolstring(thread, index, &length)
            return String(decoding: UnsafeRawBufferPointer(start: bytes, count: length), as: UTF8.self)
        }
        let text = string(at: index) ?? "(error object is a \(String(cString: lua_typename(thread, lua_type(thread, index)))) value)"
        let traceback = tracebackIndex.flatMap(string(at:))
        // The kind comes from where the error was raised (wf_raise_kind, the message handler),
        // never from its text: Lua does not run the handler for its own memory errors.
        let hit = shim.pointee
        // The host's own refusals (a copy it would keep) were raised with their message at the
        // script's line. Lua's own memory error ("not enough memory") was given the script's line
        // and a traceback where the call failed (Trampoline.c, "Runners"); it reads as the limit.
        if status == LUA_ERRRUN, hit.error_kind == Int32(WF_KIND_MEMORY) { return ScriptError(kind: .memory, message: text, traceback: traceback) }
        let reached = "memory limit of \(limits.memoryDescription) reached"
        if status == LUA_ERRRUN, hit.error_kind == Int32(WF_KIND_LUA_MEMORY) {
            let raised = ScriptError(kind: .memory, message: text)
            let position = raised.file.flatMap { file in raised.line.map { "\(file):\($0): " } } ?? ""
            return ScriptError(kind: .memory, message: position + reached, traceback: traceback)
        }
        if status == LUA_ERRMEM || (hit.hit_memory != 0 && status == LUA_ERRERR) || hit.error_kind == Int32(WF_KIND_LUA_MEMORY) {
            return ScriptError(kind: .memory, message: reached)
        }
        // Once the budget is spent every Lua instruction raises again, so whatever ends the call
        // (the budget's error, or C code such as coroutine.wrap re-raising it with a position)
        // is the budget's.
        if hit.hit_time != 0 { return ScriptError(kind: .timeout, message: text, traceback: traceback) }
        if status != LUA_ERRSYNTAX, let kind = ScriptError.Kind(raised: hit.error_kind), kind != .runtime {
            return ScriptError(kind: kind, message: text, traceback: traceback)
        }
        return ScriptError(kind: status == LUA_ERRSYNTAX ? .syntax : .runtime, message: text, traceback: traceback)
    }
}

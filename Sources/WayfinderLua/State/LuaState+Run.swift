import CLua
import CLuaShim
import Wayfinder

extension LuaState {
    /// Compiles and runs text source. `chunkName` is what messages name the chunk ("app.lua" gives
    /// "app.lua:3: ..."); a name starting with "@" or "=" is passed to Lua as it is.
    @discardableResult
    package func run(source: String, chunkName: String = "=(source)") throws(ScriptError) -> [Value] {
        drainReleasedHandles()
        let thread = activeThread
        try pushChunk(source, chunkName: chunkName, on: thread)
        return try protectedCall(on: thread, start: shim.pointee.ops_len, stackValues: 1) {
            thread, first, count throws(ScriptError) in
            try values(from: first, count: count, in: thread, what: "result")
        }
    }

    /// Runs a file. Inside the app's directory its chunk is named by its path relative to that
    /// directory ("screens/food.lua"), elsewhere by the path given.
    @discardableResult
    package func runFile(_ path: String) throws(ScriptError) -> [Value] {
        let bytes: [UInt8]
        do {
            bytes = try FileAccess.readFile(atPath: path)
        } catch {
            throw ScriptError(kind: error.isNotFound ? .notFound : .runtime, message: "cannot read \(path): \(error)")
        }
        return try run(bytes: bytes, chunkName: appSource?.directory.map { Self.chunkName(ofFile: path, in: $0) } ?? path)
    }

    /// Runs the entry script of `source` (the app's `app.lua`), named as `require` names a module.
    @discardableResult
    package func runEntry(of source: AppSource) throws(ScriptError) -> [Value] {
        let (bytes, chunkName) = try source.entrySource()
        return try run(bytes: bytes, chunkName: chunkName)
    }

    /// Runs the entry script of `source` after handing its compiled chunk to `prepare` (the
    /// spec runner gives a spec file's chunk its own environment so), then calling it.
    @discardableResult
    package func runEntry(of source: AppSource, preparedBy prepare: Value.Handle) throws(ScriptError) -> [Value] {
        drainReleasedHandles()
        let (bytes, chunkName) = try source.entrySource()
        let thread = activeThread
        var failure: ScriptError?
        var chunk: Value.Handle?
        bytes.withUnsafeBytes { buffer in
            do throws(ScriptError) {
                try pushChunk(buffer, chunkName: chunkName, on: thread)
                defer { wf_pop(thread, 1) }
                chunk = try handle(at: -1, in: thread, kind: "function")
            } catch { failure = error }
        }
        if let failure { throw failure }
        guard let chunk else { return [] }
        try call(prepare, [.handle(chunk)])
        return try call(chunk)
    }

    /// A file's chunk name: its path relative to `directory` when its real path lies inside the
    /// directory's, else the path given.
    static func chunkName(ofFile path: String, in directory: String) -> String {
        guard let realRoot = FileAccess.realPath(directory), let realFile = FileAccess.realPath(path),
            realFile.hasPrefix(realRoot == "/" ? "/" : realRoot + "/")
        else { return path }
        return String(realFile.dropFirst(realRoot == "/" ? 1 : realRoot.count + 1))
    }

    /// Runs the file's bytes as they are: only strings that cross into Swift must be UTF-8.
    private func run(bytes: [UInt8], chunkName: String) throws(ScriptError) -> [Value] {
        drainReleasedHandles()
        let thread = activeThread
        var failure: ScriptError?
        bytes.withUnsafeBytes { buffer in
            do throws(ScriptError) { try pushChunk(buffer, chunkName: chunkName, on: thread) } catch { failure = error }
        }
        if let failure { throw failure }
        return try protectedCall(on: thread, start: shim.pointee.ops_len, stackValues: 1) {
            thread, first, count throws(ScriptError) in
            try values(from: first, count: count, in: thread, what: "result")
        }
    }

    /// Compiles text source without running it.
    package func load(source: String, chunkName: String = "=(source)") throws(ScriptError) -> LuaRef {
        drainReleasedHandles()
        let thread = activeThread
        try pushChunk(source, chunkName: chunkName, on: thread)
        defer { wf_pop(thread, 1) }
        return try makeRef(at: -1, in: thread)
    }

    /// Calls a referenced Lua value with `args`, under the time budget. `wrapperLevels`: levels
    /// of the host's own around the script's values in each argument and result (a record a
    /// bundled module answers, the state document `migrate` is handed and answers), not counted
    /// toward the depth limit. The results cross in one crossing (`ValueReader`), of at most
    /// `cap` bytes when one is given (output that goes on: a screen, a saved state).
    @discardableResult
    package func call(_ function: LuaRef, _ args: [Value] = [], wrapperLevels: Int = 0, cap: CrossingCap? = nil) throws(ScriptError) -> [Value] {
        drainReleasedHandles()
        try checkOwnership(function)
        let start = try writingOps { () throws(ScriptError) in
            wf_op_ref(shim, function.reference)
            try write(args, wrapperLevels: wrapperLevels)
        }
        return try protectedCall(start: start) { thread, first, count throws(ScriptError) in
            try values(from: first, count: count, in: thread, what: "result", wrapperLevels: wrapperLevels, cap: cap)
        }
    }

    /// Calls the Lua value behind a handle (a function, or anything with `__call`).
    @discardableResult
    package func call(_ function: Value.Handle, _ args: [Value] = [], wrapperLevels: Int = 0, cap: CrossingCap? = nil) throws(ScriptError) -> [Value] {
        guard let ref = ref(for: function) else {
            throw ScriptError(kind: .conversion, message: "\(function) does not belong to this Lua state")
        }
        return try call(ref, args, wrapperLevels: wrapperLevels, cap: cap)
    }

    /// Calls the Lua value behind `function` and holds its first result by reference, whatever
    /// its type (a plain table keeps its identity instead of being copied); nil when it is nil.
    package func callHoldingResult(_ function: Value.Handle, _ args: [Value], kind: String) throws(ScriptError) -> Value.Handle? {
        drainReleasedHandles()
        guard let ref = ref(for: function) else {
            throw ScriptError(kind: .conversion, message: "\(function) does not belong to this Lua state")
        }
        // The result is referenced inside the call itself (wf_fn_call_holding): making the handle
        // then needs no second protected call.
        let start = try writingOps { () throws(ScriptError) in
            wf_op_cfunction(shim, wf_fn_call_holding)
            wf_op_ref(shim, ref.reference)
            try write(args)
        }
        return try protectedCall(start: start) { thread, first, count throws(ScriptError) in
            guard count == 2, lua_type(thread, first + 1) != LUA_TNIL else { return nil }
            let held = LuaRef(state: self, reference: Int32(truncatingIfNeeded: lua_tointegerx(thread, first, nil)))
            let identity = lua_topointer(thread, first + 1)
            // The same value already has a handle of this kind: that one is answered (and the new
            // reference goes with `held`).
            return existingHandle(for: identity, kind: kind) ?? handle(holding: held, identity: identity, kind: kind)
        }
    }

    /// What `require(name)` gives a script.
    @discardableResult
    package func require(_ name: String) throws(ScriptError) -> Value {
        drainReleasedHandles()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_require)
        writeString(name)
        return try protectedCall(start: start) { thread, first, count throws(ScriptError) in
            count > 0 ? try value(at: first, in: thread) : .null
        }
    }

    package func setGlobal(_ name: String, _ value: Value) throws(ScriptError) {
        try callStoring(wf_fn_setglobal, name, value)
    }

    package func global(_ name: String) throws(ScriptError) -> Value {
        drainReleasedHandles()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_getglobal)
        writeString(name)
        return try protectedCall(start: start) { thread, first, _ throws(ScriptError) in
            try value(at: first, in: thread)
        }
    }

    /// The referenced value, converted.
    package func value(of ref: LuaRef) throws(ScriptError) -> Value {
        let thread = activeThread
        try push(ref, on: thread)
        defer { wf_pop(thread, 1) }
        return try value(at: -1, in: thread)
    }

    /// A full garbage collection; finalizers run under the time budget.
    package func collectGarbage() throws(ScriptError) {
        drainReleasedHandles()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_collect)
        try protectedCall(start: start) { _, _, _ throws(ScriptError) in }
        drainReleasedHandles()
        afterCollection?()
    }

    // MARK: - Loading

    private func pushChunk(_ source: String, chunkName: String, on thread: OpaquePointer) throws(ScriptError) {
        var source = source
        var failure: ScriptError?
        source.withUTF8 { buffer in
            do throws(ScriptError) { try pushChunk(UnsafeRawBufferPointer(buffer), chunkName: chunkName, on: thread) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Leaves the compiled chunk on top of the stack. `source` must stay valid for the call only.
    private func pushChunk(_ source: UnsafeRawBufferPointer, chunkName: String, on thread: OpaquePointer) throws(ScriptError) {
        let base = lua_gettop(thread)
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_load)
        wf_op_lightuserdata(shim, source.baseAddress)
        wf_op_int(shim, Int64(source.count))
        writeString(chunkName.hasPrefix("@") || chunkName.hasPrefix("=") ? chunkName : "@" + chunkName)
        // wf_fn_load answers the chunk, or nil, the message, the load status and the position
        // the message names (file, line).
        try protectedCall(on: thread, start: start, keepingResults: true) { thread, first, count throws(ScriptError) in
            guard count == 5 else { return }
            defer { wf_settop(thread, base) }
            let loadStatus = Int32(lua_tointegerx(thread, first + 2, nil))
            if loadStatus == LUA_ERRMEM {
                throw ScriptError(kind: .memory, message: "memory limit of \(limits.memoryDescription) reached")
            }
            let line = Int(lua_tointegerx(thread, first + 4, nil))
            throw ScriptError(kind: .syntax, message: Self.text(at: first + 1, in: thread),
                              file: line > 0 ? Self.text(at: first + 3, in: thread) : nil, line: line > 0 ? line : nil)
        }
    }
}

import CLua
import CLuaShim

/// A Lua value held from Swift through a registry reference.
///
/// The reference is released when the `LuaRef` goes; if the state went first there is nothing to
/// release. Like its state, a `LuaRef` stays in one isolation domain.
public final class LuaRef {
    let reference: Int32
    weak var state: LuaState?

    init(state: LuaState, reference: Int32) {
        self.reference = reference
        self.state = state
        state.liveReferences += 1
    }

    deinit {
        state?.releaseReference(reference)
    }
}

extension LuaState {
    func releaseReference(_ reference: Int32) {
        liveReferences -= 1
        wf_unref(activeThread, reference)
    }

    /// A reference to the value at `index` of `thread`. The value stays where it is.
    func makeRef(at index: Int32, in thread: OpaquePointer) throws(ScriptError) -> LuaRef {
        let index = lua_absindex(thread, index)
        guard lua_checkstack(thread, 2) != 0 else { throw ScriptError.stackOverflow }
        wf_pushcfunction(thread, wf_fn_ref)
        lua_pushvalue(thread, index)
        let reference = try protectedCall(on: thread, start: shim.pointee.ops_len, stackValues: 2) {
            thread, first, _ throws(ScriptError) in Int32(truncatingIfNeeded: lua_tointegerx(thread, first, nil))
        }
        return LuaRef(state: self, reference: reference)
    }

    /// Pushes the referenced value (lua_rawgeti on the registry: no metamethods, no allocation).
    func push(_ ref: LuaRef, on thread: OpaquePointer) throws(ScriptError) {
        try checkOwnership(ref)
        guard lua_checkstack(thread, 1) != 0 else { throw ScriptError.stackOverflow }
        lua_rawgeti(thread, wf_registryindex(), lua_Integer(ref.reference))
    }

    func checkOwnership(_ ref: LuaRef) throws(ScriptError) {
        guard ref.state === self else {
            throw ScriptError(kind: .conversion, message: "a LuaRef from another Lua state")
        }
    }
}

extension ScriptError {
    static let stackOverflow = ScriptError(kind: .runtime, message: "Lua stack overflow")
}

extension LuaState {
    /// Whether `value[key]` is nil for the value `target` refers to, told by raw reads alone: the
    /// table, then each `__index` table up the metatables, as Lua's own lookup walks them. False
    /// whenever that cannot be told without running Lua (an `__index` function, a value that is
    /// not a table, a long chain, a key string that could not be made): the caller then asks Lua.
    /// Only API calls that never raise, so nothing here can longjmp through Swift.
    func certainlyLacks(_ key: String, in target: LuaRef) -> Bool {
        guard target.state === self, let wanted = keyRef(key), let indexRef = keyRef("__index") else { return false }
        let thread = activeThread
        guard lua_checkstack(thread, 4) != 0 else { return false }
        let base = lua_gettop(thread)
        defer { wf_settop(thread, base) }
        let registry = wf_registryindex()
        lua_rawgeti(thread, registry, lua_Integer(target.reference))
        // Lua gives up on a chain of 2,000; anything near that is left to Lua and its error.
        for _ in 0..<64 {
            guard lua_type(thread, -1) == LUA_TTABLE else { return false }
            lua_rawgeti(thread, registry, lua_Integer(wanted.reference))
            guard lua_rawget(thread, -2) == LUA_TNIL else { return false }
            wf_pop(thread, 1)
            guard lua_getmetatable(thread, -1) != 0 else { return true }
            lua_rawgeti(thread, registry, lua_Integer(indexRef.reference))
            if lua_rawget(thread, -2) == LUA_TNIL { return true }
            lua_copy(thread, -1, base + 1)
            wf_settop(thread, base + 1)
        }
        return false
    }

    /// The registry reference of the string `key`, made once (under protection: it allocates).
    private func keyRef(_ key: String) -> LuaRef? {
        // A few short keys: comparing them is cheaper than hashing one.
        for (known, ref) in keyRefs where known == key { return ref }
        guard let start = try? writingOps({ () throws(ScriptError) in
            wf_op_cfunction(shim, wf_fn_ref)
            writeString(key)
        }) else { return nil }
        guard let reference = try? protectedCall(start: start, { thread, first, _ throws(ScriptError) in
            Int32(truncatingIfNeeded: lua_tointegerx(thread, first, nil))
        }) else { return nil }
        let ref = LuaRef(state: self, reference: reference)
        keyRefs.append((key, ref))
        return ref
    }
}

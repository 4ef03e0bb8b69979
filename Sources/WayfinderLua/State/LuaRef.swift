import CLua
import CLuaShim

/// A Lua value held from Swift through a registry reference.
///
/// The reference is released when the `LuaRef` goes; if the state went first there is nothing to
/// release. Like its state, a `LuaRef` stays in one isolation domain.
package final class LuaRef {
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
    /// Nothing in the walk can raise (`wf_certainly_lacks`), so nothing here can longjmp through Swift.
    func certainlyLacks(_ key: String, in target: LuaRef) -> Bool {
        guard target.state === self, let wanted = keyRef(key), let indexRef = keyRef("__index") else { return false }
        return wf_certainly_lacks(activeThread, target.reference, wanted.reference, indexRef.reference) != 0
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

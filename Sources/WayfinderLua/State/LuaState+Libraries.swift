import CLua
import CLuaShim
import Wayfinder

/// A Swift function Lua can call. It must not raise: write it with ``LuaCall/run(_:_:)``.
package typealias LuaBinding = @convention(c) (OpaquePointer?) -> Int32

extension LuaState {
    /// Makes a table of `functions` and preloads it, so `require(name)` returns it.
    package func registerLibrary(_ name: String, _ functions: [(String, LuaBinding)]) throws(ScriptError) {
        drainReleasedHandles()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_preload)
        writeString(name)
        writeBindingTable(functions, prefix: name)
        try protectedCall(start: start) { _, _, _ throws(ScriptError) in }
    }

    /// Preloads any value for `require(name)`.
    package func preload(_ name: String, _ value: Value) throws(ScriptError) {
        try callStoring(wf_fn_preload, name, value)
    }

    /// Runs one of the shim's `(name, value)` storing functions (preload, setglobal) protected.
    func callStoring(_ function: lua_CFunction, _ name: String, _ value: Value) throws(ScriptError) {
        drainReleasedHandles()
        let start = try writingOps { () throws(ScriptError) in
            wf_op_cfunction(shim, function)
            writeString(name)
            try write(value, depth: 0)
        }
        try protectedCall(start: start) { _, _, _ throws(ScriptError) in }
    }

    /// A new table holding `functions`, e.g. a metatable for ``newObject(_:metatable:)``.
    package func makeTable(_ functions: [(String, LuaBinding)]) throws(ScriptError) -> LuaRef {
        drainReleasedHandles()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_ref)
        writeBindingTable(functions, prefix: nil)
        return try referenceResult(start: start)
    }

    /// One binding as a Lua function. `name` is what argument errors call it.
    package func makeFunction(_ binding: LuaBinding, name: String) throws(ScriptError) -> LuaRef {
        drainReleasedHandles()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_ref)
        var name = name
        name.withUTF8 { wf_op_binding(shim, binding, $0.baseAddress, $0.count) }
        return try referenceResult(start: start)
    }

    /// A full userdata that keeps `object` alive until Lua collects it, with `metatable` (whose
    /// `__gc` Wayfinder sets to its own, which releases the object at the state's next entry point).
    /// Bindings get the object back with ``LuaCall/object(_:as:name:)``. Unless the metatable has a
    /// `__metatable` field, getmetatable on the object gives false; do not hand the metatable itself
    /// to scripts, which could replace its `__gc` with a finalizer the time budget cannot stop.
    package func newObject(_ object: AnyObject, metatable: LuaRef) throws(ScriptError) -> Value {
        drainReleasedHandles()
        try checkOwnership(metatable)
        let retained = Unmanaged.passRetained(object).toOpaque()
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_newobject)
        wf_op_lightuserdata(shim, retained)
        wf_op_ref(shim, metatable.reference)
        var made = false
        do {
            return try protectedCall(start: start) { thread, first, _ throws(ScriptError) in
                made = true
                return try value(at: first, in: thread)
            }
        } catch {
            // The userdata never took the object (see wf_fn_newobject): the retain is still ours.
            if !made { Unmanaged<AnyObject>.fromOpaque(retained).release() }
            throw error
        }
    }

    /// The Swift object inside a handle made by ``newObject(_:metatable:)``.
    package func object<T: AnyObject>(_ value: Value, as type: T.Type) -> T? {
        guard case .handle(let handle) = value, let ref = ref(for: handle) else { return nil }
        let thread = activeThread
        guard (try? push(ref, on: thread)) != nil else { return nil }
        defer { wf_pop(thread, 1) }
        guard let pointer = wf_toobject(thread, -1) else { return nil }
        return Unmanaged<AnyObject>.fromOpaque(pointer).takeUnretainedValue() as? T
    }

    private func writeBindingTable(_ functions: [(String, LuaBinding)], prefix: String?) {
        wf_op_table(shim, 0, Int32(clamping: functions.count))
        for (name, binding) in functions {
            var qualified = prefix.map { "\($0).\(name)" } ?? name
            qualified.withUTF8 { wf_op_binding(shim, binding, $0.baseAddress, $0.count) }
            var key = name
            key.withUTF8 { wf_op_setfield(shim, $0.baseAddress, $0.count) }
        }
    }

    private func referenceResult(start: Int) throws(ScriptError) -> LuaRef {
        let reference = try protectedCall(start: start) { thread, first, _ throws(ScriptError) in
            Int32(truncatingIfNeeded: lua_tointegerx(thread, first, nil))
        }
        return LuaRef(state: self, reference: reference)
    }
}

import CLua
import CLuaShim
import Wayfinder

extension LuaCall {
    /// Answers pointers as light userdata and C functions of CLuaShim as Lua functions, in that
    /// order: return what this answers from the binding's body. Only for the host's own modules,
    /// which hand a pointer straight to the C function that takes it.
    package func answer(pointers: [UnsafeMutableRawPointer] = [], cFunctions: [lua_CFunction] = []) -> [Value] {
        for pointer in pointers { wf_op_lightuserdata(state.shim, pointer) }
        for function in cFunctions { wf_op_cfunction(state.shim, function) }
        return []
    }
}

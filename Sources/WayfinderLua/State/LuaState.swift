import CLua
import CLuaShim
import Wayfinder

/// One sandboxed Lua 5.4 state with its limits, module roots and output sinks.
///
/// A state belongs to one isolation domain: it is not `Sendable`. Every call from Swift into Lua is
/// protected; Lua errors come back as thrown ``ScriptError``s and leave the state usable.
package final class LuaState {
    /// The main thread. The state owns it and closes it in `deinit`.
    let L: OpaquePointer
    /// The C side of the state (allocator accounting, op buffer, deadline, sinks).
    let shim: UnsafeMutablePointer<wf_host>

    /// Whoever embeds the state (an app host, a spec runner), for bindings to find through
    /// ``LuaState/from(_:)``. Held weakly: the embedder owns the state, not the other way round.
    package weak var host: AnyObject?

    package var limits: LuaLimits {
        didSet {
            shim.pointee.mem_limit = max(0, limits.memoryBytes)
            shim.pointee.budget_ns = limits.timeBudgetNanoseconds
        }
    }

    /// Where `require` finds the app's modules: "screens.food" is `screens/food.lua` or
    /// `screens/food/init.lua` among its files.
    package var appSource: AppSource?
    /// Where `require` finds "wayfinder" (`init.lua`) and "wayfinder.x" (`x.lua`): the modules
    /// compiled into Wayfinder, or a directory that stands in for them (`BundledLua`).
    package var bundledSource: AppSource?

    /// Receives each `print` call's text (arguments joined by tabs, no newline).
    package var printSink: (String) -> Void = { text in print(text) }
    /// Receives each warning (`warn(...)`, errors in `__gc` finalizers).
    package var warningSink: (String) -> Void = { text in writeToStandardError("Lua warning: \(text)\n") }

    // Read at every crossing (a handle's reference, a hook's key), each in one step, by the one
    // thread that owns the state: no run-time exclusivity check.
    @exclusivity(unchecked) var handles: [UInt64: HandleEntry] = [:]
    @exclusivity(unchecked) var handleIDs: [UnsafeRawPointer: UInt64] = [:]
    /// Gives back what the host kept for objects a full collection found dead (a context layer's
    /// values): run after every ``collectGarbage()``, so any copy that waits for room after a
    /// collection finds it.
    var afterCollection: (() -> Void)?
    var nextHandleID: UInt64 = 1
    let releaseQueue = HandleReleaseQueue()
    var liveReferences = 0
    /// Strings held in the registry so raw lookups can push them without allocating.
    @exclusivity(unchecked) var keyRefs: [(String, LuaRef)] = []

    package init(limits: LuaLimits = .standard) throws(ScriptError) {
        guard let L = wf_newstate(max(0, limits.memoryBytes), limits.timeBudgetNanoseconds) else {
            throw ScriptError(kind: .memory, message: "cannot create a Lua state within \(limits.memoryDescription)")
        }
        self.L = L
        self.shim = wf_host_of(L)
        self.limits = limits
        shim.pointee.owner = Unmanaged.passUnretained(self).toOpaque()
        shim.pointee.print_sink = luaPrintSink
        shim.pointee.warn_sink = luaWarningSink
        shim.pointee.module_reader = luaModuleReader
        shim.pointee.chunk_keeper = luaChunkKeeper
        let start = shim.pointee.ops_len
        wf_op_cfunction(shim, wf_fn_open_sandbox)
        try protectedCall(start: start) { _, _, _ throws(ScriptError) in }
    }

    deinit {
        _ = wf_close(L)
        LuaState.releaseFinalizedObjects(in: shim)
        wf_free_host(shim)
    }

    /// The state a binding runs in. `L` may be any thread (coroutine) of the state.
    package static func from(_ L: OpaquePointer) -> LuaState {
        guard let owner = wf_host_of(L).pointee.owner else {
            preconditionFailure("a lua_State that no LuaState owns")
        }
        return Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
    }

    /// Bytes the state holds now.
    package var memoryInUse: Int { Int(shim.pointee.mem_used) }

    /// The main thread's stack top; calls leave it as they found it.
    package var stackTop: Int32 { lua_gettop(L) }

    /// Registry references held by live ``LuaRef``s (handles included).
    package var liveReferenceCount: Int { liveReferences }

    /// Lua values held for `Value.Handle`s not yet released.
    package var liveHandleCount: Int { handles.count }

    /// The thread Swift should call on: the one running the innermost binding, else the main one.
    var activeThread: OpaquePointer { shim.pointee.current ?? L }
}

import CLua
import CLuaShim
import Wayfinder

/// Ids of handles whose last copy went. A `Value.Handle` may be dropped on any thread, so it only
/// queues its id here; the state releases the Lua values the next time it is entered.
///
/// The state looks at the queue each time it is entered, several times in each open, and it is
/// nearly always empty: a flag raised with each id, read without the lock, saves those looks the
/// lock. An id queued while the state reads the flag is taken at the next look.
final class HandleReleaseQueue: @unchecked Sendable {
    private let pending = Locked<[UInt64]>([])
    // Changed under the lock only; read without it. Unchecked above for this pointer alone.
    private let queued: UnsafeMutablePointer<Int32>

    init() {
        queued = .allocate(capacity: 1)
        queued.initialize(to: 0)
    }

    deinit {
        queued.deallocate()
    }

    func add(_ id: UInt64) {
        pending.withLock { ids in
            ids.append(id)
            wf_flag_store(queued, 1)
        }
    }

    func takeAll() -> [UInt64] {
        guard wf_flag_load(queued) != 0 else { return [] }
        return pending.withLock { ids in
            wf_flag_store(queued, 0)
            defer { ids.removeAll() }
            return ids
        }
    }
}

/// The Lua value behind one handle.
struct HandleEntry {
    let ref: LuaRef
    weak var handle: Value.Handle?
    /// The value's identity in Lua, so converting the same value again gives the same handle.
    let identity: UnsafeRawPointer?
}

extension LuaState {
    /// The handle for the value at `index` (any value; conversions use it for functions, userdata,
    /// threads and tables with a metatable). The same value asked for with the same kind gives the
    /// same handle while that handle lives.
    func handle(at index: Int32, in thread: OpaquePointer, kind: String) throws(ScriptError) -> Value.Handle {
        let identity = lua_topointer(thread, index)
        if let existing = existingHandle(for: identity, kind: kind) { return existing }
        return handle(holding: try makeRef(at: index, in: thread), identity: identity, kind: kind)
    }

    /// A handle for a new Lua value made from `value` (a table from an array or a map), held
    /// until the handle goes: what Swift hands Lua again and again, built once.
    func handle(holding value: Value, kind: String) throws(ScriptError) -> Value.Handle {
        drainReleasedHandles()
        let start = try writingOps { () throws(ScriptError) in
            wf_op_cfunction(shim, wf_fn_ref)
            try write(value, depth: 0)
        }
        let reference = try protectedCall(start: start) { thread, first, _ throws(ScriptError) in
            Int32(truncatingIfNeeded: lua_tointegerx(thread, first, nil))
        }
        return handle(holding: LuaRef(state: self, reference: reference), identity: nil, kind: kind)
    }

    /// The handle already made for the value whose identity is `identity`, with this kind.
    func existingHandle(for identity: UnsafeRawPointer?, kind: String) -> Value.Handle? {
        guard let identity, let id = handleIDs[identity], let existing = handles[id]?.handle, existing.kind == kind else { return nil }
        return existing
    }

    /// A new handle for the value `ref` holds (whose identity is `identity`), which no handle of
    /// this kind holds yet.
    func handle(holding ref: LuaRef, identity: UnsafeRawPointer?, kind: String) -> Value.Handle {
        let id = nextHandleID
        nextHandleID += 1
        let handle = Value.Handle(id: id, kind: kind, onRelease: { [releaseQueue] id in releaseQueue.add(id) })
        let entry = HandleEntry(ref: ref, handle: handle, identity: identity)
        handles[id] = entry
        if let identity { handleIDs[identity] = id }
        return handle
    }

    /// The reference behind a handle this state made, if it is still held.
    package func ref(for handle: Value.Handle) -> LuaRef? {
        guard let entry = handles[handle.id], entry.handle === handle else { return nil }
        return entry.ref
    }

    /// Releases the Lua values of handles that were dropped since the last time, and the Swift
    /// objects of userdata Lua has finalized.
    ///
    /// Only at entry points (a public call from Swift, a binding starting): a Swift deinit may call
    /// into Lua, which must not happen while Swift is walking a table with lua_next.
    func drainReleasedHandles() {
        LuaState.releaseFinalizedObjects(in: shim)
        for id in releaseQueue.takeAll() {
            guard let entry = handles.removeValue(forKey: id) else { continue }
            if let identity = entry.identity, handleIDs[identity] == id {
                handleIDs[identity] = nil
            }
        }
    }

    /// One at a time, reading the queue afresh each time: a deinit may call into Lua and queue more.
    static func releaseFinalizedObjects(in shim: UnsafeMutablePointer<wf_host>) {
        while shim.pointee.finalized_len > 0 {
            shim.pointee.finalized_len -= 1
            guard let object = shim.pointee.finalized[shim.pointee.finalized_len] else { continue }
            Unmanaged<AnyObject>.fromOpaque(object).release()
        }
    }
}

import CLuaShim
import Wayfinder

/// Memory the host keeps on a script's behalf outside Lua's allocator (values stored in contexts,
/// say) is charged to the state's memory limit like Lua's own, so a script cannot grow the host past
/// the limit by handing it values.
extension LuaState {
    /// Charges `bytes` to the state's memory; throws the memory limit's error, charging nothing,
    /// when they do not fit.
    public func chargeExternal(_ bytes: Int) throws(ScriptError) {
        guard bytes > 0 else { return }
        let used = Int(shim.pointee.mem_used)
        let limit = Int(shim.pointee.mem_limit)
        guard used <= limit, bytes <= limit - used else {
            throw ScriptError(kind: .memory, message: "memory limit of \(limits.memoryDescription) reached")
        }
        shim.pointee.mem_used += bytes
    }

    /// Gives back bytes charged with ``chargeExternal(_:)``.
    public func releaseExternal(_ bytes: Int) {
        guard bytes > 0 else { return }
        shim.pointee.mem_used -= min(bytes, shim.pointee.mem_used)
    }
}

/// Bytes charged to a state's memory limit for as long as the object holding this lives: what a
/// value Swift keeps on a script's behalf costs (``LentCall/charge(for:)``). Dropping it gives the
/// bytes back.
public final class ExternalCharge {
    private weak var state: LuaState?
    /// The bytes charged.
    public let bytes: Int

    init(_ bytes: Int, to state: LuaState) throws(ScriptError) {
        try state.chargeExternal(bytes)
        self.state = state
        self.bytes = bytes
    }

    deinit { state?.releaseExternal(bytes) }
}

extension Value {
    /// About how many bytes the value holds in Swift: its strings' bytes and a fixed cost per value
    /// (and per key), so that many small values count too.
    var retainedSize: Int {
        let overhead = 32
        switch self {
        case .string(let text): return overhead + text.utf8.count
        case .array(let items): return items.reduce(overhead) { $0 + $1.retainedSize }
        case .map(let pairs): return pairs.reduce(overhead) { $0 + overhead + $1.key.utf8.count + $1.value.retainedSize }
        default: return overhead
        }
    }
}

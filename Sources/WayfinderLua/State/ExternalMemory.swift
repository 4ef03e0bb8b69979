import CLuaShim
import Wayfinder

/// Memory the host keeps on a script's behalf outside Lua's allocator (values stored in contexts,
/// the URLs of the screens it opened, its routes) is charged to the state's memory limit like
/// Lua's own, so a script cannot grow the host past the limit by handing it values.
extension LuaState {
    /// Charges `bytes` to the state's memory; throws the memory limit's error, charging nothing,
    /// when they do not fit. The host's copies stop short of the limit by a reserve (64 KiB, or
    /// an eighth of a smaller limit) that only Lua may use: a script whose memory the host's
    /// copies filled still has room to take the refusal, build its message and go on.
    package func chargeExternal(_ bytes: Int) throws(ScriptError) {
        guard bytes > 0 else { return }
        guard bytes <= roomForCopies else {
            throw ScriptError(kind: .memory, message: "memory limit of \(limits.memoryDescription) reached")
        }
        shim.pointee.mem_used += bytes
    }

    /// What the host's copies may still take: the limit, less the reserve only Lua may use, less
    /// what the state holds now. A crossing of values into Swift (``ValueReader``) copies at most
    /// this much.
    var roomForCopies: Int {
        let used = Int(shim.pointee.mem_used)
        let limit = Int(shim.pointee.mem_limit)
        return max(0, limit - reserveForLua - used)
    }

    /// The last part of the limit that only Lua may use: 64 KiB, or an eighth of a smaller limit.
    var reserveForLua: Int { min(64 << 10, Int(shim.pointee.mem_limit) / 8) }

    /// Charges `bytes` as Lua's allocator would: when they do not fit, after a full collection
    /// (garbage the script left, and the host's objects it held, go first), once more.
    func chargeExternalCollecting(_ bytes: Int) throws(ScriptError) {
        do {
            try chargeExternal(bytes)
        } catch {
            try collectGarbage()
            try chargeExternal(bytes)
        }
    }

    /// Gives back bytes charged with ``chargeExternal(_:)``.
    package func releaseExternal(_ bytes: Int) {
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

    /// Charges `bytes` (collecting garbage first when they do not fit at once); throws the memory
    /// limit's error, charging nothing, when they still do not fit.
    init(_ bytes: Int, to state: LuaState) throws(ScriptError) {
        try state.chargeExternalCollecting(bytes)
        self.state = state
        self.bytes = bytes
    }

    deinit { state?.releaseExternal(bytes) }
}

/// About how many bytes the host keeps for what a script handed it: strings' bytes (times the
/// copies the host makes of them) and a fixed cost per object, so that many small ones count too.
/// The one place these estimates live.
enum RetainedCost {
    static let overhead = 32

    /// A screen's entry in the navigation tree and its controller: the URL, and the key share mode
    /// compares it by (percent-encoding can make that up to three times the URL's length).
    static func entry(url: String) -> Int { 256 + 4 * url.utf8.count }

    /// A screen's entry opened by `request`, or the open a guard keeps waiting: the URL, as
    /// `entry(url:)`, and the query and state the request hands over.
    static func entry(_ request: NavigationRequest) -> Int {
        entry(url: request.url) + (request.query.isEmpty ? 0 : Value.map(request.query).retainedSize) + (request.state?.retainedSize ?? 0)
    }

    /// A route in the route table: its pattern (its text, its parsed parts and the trie's keys),
    /// its options and the names its target keeps (its class's, its native screen's, where its
    /// guard is defined).
    static func route(pattern: String, options: RouteOptions, names: [String?]) -> Int {
        let texts = RouteOption.keptText(of: options) + names.reduce(0) { $0 + ($1?.utf8.count ?? 0) }
        return 1024 + 4 * pattern.utf8.count + texts
    }

    /// What a native screen's factory is handed (``NativeScreenRequest``), which the screen may
    /// keep: copies of the URL, the pattern, the params, the query and the state; its context
    /// holds the very strings the context layers hold (charged there), so only its keys count.
    static func nativeScreen(_ request: NativeScreenRequest) -> Int {
        256 + request.url.utf8.count + request.pattern.utf8.count + (request.fragment?.utf8.count ?? 0)
            + Value.map(request.params).retainedSize + Value.map(request.query).retainedSize + (request.state?.retainedSize ?? 0)
            + request.context.keys.reduce(0) { $0 + text($1) }
    }

    /// A moved route (`wf.map:moved`): both patterns, parsed, and the old one's place in the
    /// table of moves.
    static func move(old: String, new: String) -> Int { 1024 + 4 * (old.utf8.count + new.utf8.count) }

    /// A param type: its name, the converter and the handle to the script's function.
    static func paramType(name: String) -> Int { 256 + 2 * name.utf8.count }

    /// A context key observed from Lua: the host's one observer of it (and the layer's record of
    /// what it is charged).
    static func observer(key: String) -> Int { 128 + key.utf8.count }

    /// A context layer's name and declared field types (and the layer's record of what it is
    /// charged).
    static func layer(name: String?, fields: some Sequence<String>) -> Int {
        fields.reduce(128 + (name?.utf8.count ?? 0)) { $0 + text($1) }
    }

    /// A string kept as it is (a title, a tab's fixed title, an app's name).
    static func text(_ text: String) -> Int { overhead + text.utf8.count }
}

extension Value {
    /// About how many bytes the value holds in Swift: its strings' bytes and a fixed cost per value
    /// (and per key), so that many small values count too.
    var retainedSize: Int {
        let overhead = RetainedCost.overhead
        switch self {
        case .string(let text): return overhead + text.utf8.count
        case .array(let items): return items.reduce(overhead) { $0 + $1.retainedSize }
        case .map(let pairs): return pairs.reduce(overhead) { $0 + overhead + $1.key.utf8.count + $1.value.retainedSize }
        default: return overhead
        }
    }
}

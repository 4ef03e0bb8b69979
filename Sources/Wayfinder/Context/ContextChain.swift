import OrderedCollections

/// One layer of a context chain (ControllerContext's idea): key/value pairs, an optional name, and
/// one inner context, so screens can pass data forward and hand results back without delegate
/// boilerplate. Layers chain like an onion: a read walks inward to the first layer holding the
/// key; a write lands on the layer it was called on, or on the outermost layer with the name given.
///
/// Unlike ControllerContext, `remove` without a name never reaches into inner layers (removing
/// an app-wide value by accident was its trap), a name that is not in the chain is an error rather
/// than a silent no-op, and observers of a named write are the reached layer's own.
public final class ContextChain {
    private static let lastID = Locked(0)

    /// Unique among the contexts of this process, never reused: hosts key their own data by it.
    public let id: Int
    /// The name scripts find the context by; nil for an anonymous one.
    public let name: String?
    /// Cleared only as the layer goes (`deinit`).
    public private(set) var inner: ContextChain?
    /// Typed fields; empty for an untyped context.
    public let fields: [String: ContextFieldType]
    /// This layer's own entries. `.null` is a stored nil, which hides inner values of its key.
    public private(set) var entries: OrderedDictionary<String, Value> = [:]
    private var observers: [String: [Observer]] = [:]

    struct Observer {
        weak var owner: AnyObject?
        let callback: (AnyObject, Value, String) throws -> Void
    }

    /// What went wrong in one observer of a `set`; the set itself stands.
    public struct ObserverFailure: Error {
        /// The key whose observer failed.
        public let key: String
        /// What the observer threw.
        public let error: Error
    }

    /// A context named `name` (or anonymous), inside `inner`, whose `fields` are typed.
    public init(name: String? = nil, inner: ContextChain? = nil, fields: [String: ContextFieldType] = [:]) {
        self.id = Self.lastID.withLock { number in
            number += 1
            return number
        }
        self.name = name
        self.inner = inner
        self.fields = fields
    }

    // Releasing a layer releases its inner one from inside this deinit, and so on down the
    // chain: a chain as long as a script or a state file makes it would run out of stack. The
    // layers only this one keeps are let go one after the other instead.
    deinit {
        var next = inner
        inner = nil
        while isKnownUniquelyReferenced(&next), let layer = next {
            next = layer.inner
            layer.inner = nil
        }
    }

    /// The layers from this one inward; this one is first.
    public var layers: [ContextChain] {
        var result = [ContextChain]()
        var current: ContextChain? = self
        while let layer = current {
            result.append(layer)
            current = layer.inner
        }
        return result
    }

    /// The outermost layer named `name`, this one when `name` is nil.
    public func layer(named name: String?) throws(ContextError) -> ContextChain {
        guard let name else { return self }
        guard let found = layers.first(where: { $0.name == name }) else { throw .noContextNamed(name) }
        return found
    }

    // MARK: Reading and writing

    /// The value of `key`: from the first layer inward that holds it, or only from the layer
    /// named `name`. nil when no layer holds it or the holder stores nil.
    public func get(_ key: String, in name: String? = nil) throws(ContextError) -> Value? {
        try Self.check(key)
        if name != nil {
            let value = try layer(named: name).entries[key]
            return value?.isNull == true ? nil : value
        }
        for layer in layers {
            if let value = layer.entries[key] { return value.isNull ? nil : value }
        }
        return nil
    }

    /// Stores `value` (`.null` stores a nil) on this layer or the one named `name`, then calls
    /// that layer's observers of `key`. Observer errors are returned, not thrown: the set stands
    /// and every observer is called.
    @discardableResult
    public func set(_ key: String, _ value: Value, in name: String? = nil) throws(ContextError) -> [ObserverFailure] {
        try Self.check(key)
        let target = try layer(named: name)
        if let type = target.fields[key], !type.accepts(value) {
            throw .wrongType(field: key, expected: type, got: value.typeDescription)
        }
        target.entries[key] = value
        return target.notify(key, value)
    }

    /// Takes `key` off this layer (or the one named `name`) only; an inner value shows again.
    @discardableResult
    public func remove(_ key: String, in name: String? = nil) throws(ContextError) -> Bool {
        try Self.check(key)
        return try layer(named: name).entries.removeValue(forKey: key) != nil
    }

    /// Every key some layer holds, outermost first, each once (keys holding a stored nil too).
    public var keys: [String] {
        var seen = OrderedDictionary<String, Void>()
        for layer in layers { for key in layer.entries.keys where seen[key] == nil { seen[key] = () } }
        return Array(seen.keys)
    }

    /// Every layer, outermost first, as `level:--- name ---` followed by `level:key = value`
    /// lines; the innermost layer is level 0. Strings print bare, as in ControllerContext; other
    /// values as Lua literals, held references by kind.
    public func dump() -> String {
        let all = layers
        var lines = [String]()
        for (index, layer) in all.enumerated() {
            let level = all.count - 1 - index
            lines.append("\(level):--- \(layer.name ?? "(unnamed)") ---")
            for (key, value) in layer.entries {
                lines.append("\(level):\(key) = \(Self.dumped(value))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A value as `dump` prints it.
    private static func dumped(_ value: Value) -> String {
        switch value {
        case .string(let text): return text
        case .null: return "nil"
        default: return value.description
        }
    }

    // MARK: Observers

    /// Calls `callback(owner, value, key)` whenever `key` is set on this layer. The owner is held
    /// weakly: the observer goes when the owner does, or with `unobserve(owner)`.
    public func observe(_ key: String, owner: AnyObject, _ callback: @escaping (AnyObject, Value, String) throws -> Void) throws(ContextError) {
        try Self.check(key)
        observers[key, default: []].append(Observer(owner: owner, callback: callback))
    }

    /// Removes every observer `owner` has on this layer.
    public func unobserve(_ owner: AnyObject) {
        for key in Array(observers.keys) {
            observers[key]?.removeAll { $0.owner == nil || $0.owner === owner }
            if observers[key]?.isEmpty == true { observers[key] = nil }
        }
    }

    /// Whether `owner` observes `key` on this layer.
    public func isObserved(_ key: String, by owner: AnyObject) -> Bool {
        observers[key]?.contains { $0.owner === owner } ?? false
    }

    /// How many observers with a living owner this layer has for `key`.
    public func observerCount(for key: String) -> Int {
        observers[key]?.filter { $0.owner != nil }.count ?? 0
    }

    private func notify(_ key: String, _ value: Value) -> [ObserverFailure] {
        observers[key]?.removeAll { $0.owner == nil }
        guard let list = observers[key], !list.isEmpty else { return [] }
        var failures = [ObserverFailure]()
        for observer in list {
            guard let owner = observer.owner else { continue }
            do { try observer.callback(owner, value, key) } catch { failures.append(ObserverFailure(key: key, error: error)) }
        }
        return failures
    }

    private static func check(_ key: String) throws(ContextError) {
        if key.isEmpty { throw .invalidKey("an empty string") }
    }
}

extension Value {
    /// The type's name as an error reports it.
    public var typeDescription: String {
        switch self {
        case .null: return "nil"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .double: return "a number"
        case .string: return "a string"
        case .array, .map: return "a table"
        case .handle(let handle): return "a \(handle.kind)"
        }
    }
}

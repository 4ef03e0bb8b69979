import OrderedCollections

/// The one data type that crosses between Swift and Lua: it fills bound params, query tables and
/// contexts, and it is what persistence writes.
///
/// Maps keep insertion order (so params print in pattern order), but two maps are equal when they
/// hold the same pairs in any order, as Lua tables are.
public enum Value: Sendable {
    /// Lua's `nil`.
    case null
    /// A boolean.
    case bool(Bool)
    /// An integer.
    case int(Int64)
    /// A number that is not an integer.
    case double(Double)
    /// A string.
    case string(String)
    /// A table with keys 1 to n.
    case array([Value])
    /// A table with string keys, in the order they were set.
    case map(OrderedDictionary<String, Value>)
    /// A value Swift holds only by reference (a Lua function, a userdata, a table with a metatable).
    /// It can travel, but it cannot be written to disk or compared by content.
    case handle(Handle)

    /// A token for something only its minter can use (the Lua host mints them for Lua values).
    /// When the last copy of a value holding the token goes, the minter is told, so it can release
    /// what the token stands for. Two handles are equal when they are the same token.
    public final class Handle: Hashable, Sendable, CustomStringConvertible {
        /// The number that identifies the value in its Lua state.
        public let id: UInt64
        /// What the referenced thing is, for messages and dumps ("function", "userdata", "table").
        public let kind: String
        private let onRelease: (@Sendable (UInt64) -> Void)?

        /// A handle for the value numbered `id`, of Lua type `kind`; `onRelease` runs once, when the last
        /// copy of the handle goes.
        public init(id: UInt64, kind: String, onRelease: (@Sendable (UInt64) -> Void)? = nil) {
            self.id = id
            self.kind = kind
            self.onRelease = onRelease
        }

        deinit { onRelease?(id) }

        /// Whether both are the same handle.
        public static func == (lhs: Handle, rhs: Handle) -> Bool { lhs === rhs }
        /// Hashes the handle's identity.
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        /// The kind and number, as `<function #3>`.
        public var description: String { "<\(kind) #\(id)>" }
    }
}

extension Value: Equatable {
    /// Whether both values are equal: numbers by value, tables element by element, handles by identity.
    public static func == (lhs: Value, rhs: Value) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.int(a), .int(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.map(a), .map(b)):
            guard a.count == b.count else { return false }
            for (key, value) in a {
                guard let other = b[key], other == value else { return false }
            }
            return true
        case let (.handle(a), .handle(b)): return a == b
        default: return false
        }
    }
}

extension Value: Hashable {
    /// Hashes the value consistently with `==`.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b): hasher.combine(1); hasher.combine(b)
        case .int(let i): hasher.combine(2); hasher.combine(i)
        case .double(let d): hasher.combine(3); hasher.combine(d)
        case .string(let s): hasher.combine(4); hasher.combine(s)
        case .array(let a): hasher.combine(5); hasher.combine(a)
        case .map(let m):
            // Order-independent, to agree with ==.
            hasher.combine(6)
            var combined = 0
            for (key, value) in m {
                var h = Hasher()
                h.combine(key)
                h.combine(value)
                combined ^= h.finalize()
            }
            hasher.combine(combined)
        case .handle(let h): hasher.combine(7); hasher.combine(h)
        }
    }
}

extension Value {
    /// Whether it is `null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// False when the value is, or (in a list or map) holds, NaN or an infinity.
    public var isFiniteThroughout: Bool {
        switch self {
        case .double(let d): return d.isFinite
        case .array(let list): return list.allSatisfy(\.isFiniteThroughout)
        case .map(let map): return map.values.allSatisfy(\.isFiniteThroughout)
        default: return true
        }
    }

    /// The string, when it is one.
    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    /// The integer, when it is one.
    public var intValue: Int64? { if case .int(let i) = self { return i } else { return nil } }
    /// The boolean, when it is one.
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    /// The number, when it is an integer or a double.
    public var doubleValue: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }
    /// The elements, when it is an array.
    public var arrayValue: [Value]? { if case .array(let a) = self { return a } else { return nil } }
    /// The keys and values, when it is a map.
    public var mapValue: OrderedDictionary<String, Value>? { if case .map(let m) = self { return m } else { return nil } }

    /// The value at `key`, when it is a map that has it.
    public subscript(key: String) -> Value? {
        if case .map(let m) = self { return m[key] }
        return nil
    }

    /// The name of the value's kind, as messages print it.
    public var kindName: String {
        switch self {
        case .null: return "nil"
        case .bool: return "boolean"
        case .int: return "integer"
        case .double: return "number"
        case .string: return "string"
        case .array: return "array"
        case .map: return "table"
        case .handle(let h): return h.kind
        }
    }
}

// Deliberately not ExpressibleByNilLiteral: with it, `nil` in a `Value?` context can silently
// become `.null` instead of "no value".
extension Value: ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// A boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int64) { self = .int(value) }
    /// A double.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    /// A map, its keys in the order given.
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .map(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

import OrderedCollections

/// The one data type that crosses between Swift and Lua: it fills bound params, query tables and
/// contexts, and it is what persistence writes.
///
/// Maps keep insertion order (so params print in pattern order), but two maps are equal when they
/// hold the same pairs in any order, as Lua tables are.
public enum Value: Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([Value])
    case map(OrderedDictionary<String, Value>)
    /// A value Swift holds only by reference (a Lua function, a userdata, a table with a metatable).
    /// It can travel, but it cannot be written to disk or compared by content.
    case handle(Handle)

    /// A token for something only its minter can use (the Lua host mints them for Lua values).
    /// When the last copy of a value holding the token goes, the minter is told, so it can release
    /// what the token stands for. Two handles are equal when they are the same token.
    public final class Handle: Hashable, Sendable, CustomStringConvertible {
        public let id: UInt64
        /// What the referenced thing is, for messages and dumps ("function", "userdata", "table").
        public let kind: String
        private let onRelease: (@Sendable (UInt64) -> Void)?

        public init(id: UInt64, kind: String, onRelease: (@Sendable (UInt64) -> Void)? = nil) {
            self.id = id
            self.kind = kind
            self.onRelease = onRelease
        }

        deinit { onRelease?(id) }

        public static func == (lhs: Handle, rhs: Handle) -> Bool { lhs === rhs }
        public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
        public var description: String { "<\(kind) #\(id)>" }
    }
}

extension Value: Equatable {
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

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }
    public var intValue: Int64? { if case .int(let i) = self { return i } else { return nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    public var doubleValue: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }
    public var arrayValue: [Value]? { if case .array(let a) = self { return a } else { return nil } }
    public var mapValue: OrderedDictionary<String, Value>? { if case .map(let m) = self { return m } else { return nil } }

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
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: Value...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, Value)...) {
        self = .map(OrderedDictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

import OrderedCollections

/// A value encodes as the JSON it looks like: maps as objects, arrays as arrays, `.null` as null.
/// A handle stands for something alive in a running app and cannot be encoded (persistence
/// leaves such values out before it encodes; see `Value.persistable`).
///
/// JSON has one kind of number, so a float with no fractional part (`2.0`) decodes as the
/// integer 2; Lua compares the two equal.
extension Value: Codable {
    public init(from decoder: Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var elements = [Value]()
            while !array.isAtEnd { elements.append(try array.decode(Value.self)) }
            self = .array(elements)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var map = OrderedDictionary<String, Value>()
            // Sorted, so a decoded map has the same order every time.
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                map[key.stringValue] = try object.decode(Value.self, forKey: key)
            }
            self = .map(map)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let int = try? single.decode(Int64.self) {
            self = .int(int)
        } else if let double = try? single.decode(Double.self) {
            self = .double(double)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let bool):
            var single = encoder.singleValueContainer()
            try single.encode(bool)
        case .int(let int):
            var single = encoder.singleValueContainer()
            try single.encode(int)
        case .double(let double):
            var single = encoder.singleValueContainer()
            try single.encode(double)
        case .string(let string):
            var single = encoder.singleValueContainer()
            try single.encode(string)
        case .array(let elements):
            var array = encoder.unkeyedContainer()
            for element in elements { try array.encode(element) }
        case .map(let map):
            var object = encoder.container(keyedBy: AnyKey.self)
            for (key, value) in map { try object.encode(value, forKey: AnyKey(key)) }
        case .handle(let handle):
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath,
                debugDescription: "\(handle.kind) values live only in a running app and cannot be written"))
        }
    }

    /// Any string as a coding key.
    struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }
}

extension Value {
    /// This value with everything that cannot be written to disk left out: handles (functions,
    /// userdata, tables with a metatable) and numbers that are not finite. Each one left out is
    /// named in `leftOut`, by its path below `path` (`state.callback`, `query.items[2]`). In an
    /// array the place stays, holding nil, so the other elements keep their positions. nil when
    /// the value itself cannot persist.
    public func persistable(at path: String, leftOut: inout [String]) -> Value? {
        switch self {
        case .handle(let handle):
            leftOut.append("\(path) (a \(handle.kind))")
            return nil
        case .double(let double) where !double.isFinite:
            leftOut.append("\(path) (\(double), not a finite number)")
            return nil
        case .array(let elements):
            return .array(elements.enumerated().map { index, element in
                element.persistable(at: "\(path)[\(index + 1)]", leftOut: &leftOut) ?? .null
            })
        case .map(let map):
            var kept = OrderedDictionary<String, Value>()
            for (key, value) in map {
                if let value = value.persistable(at: "\(path).\(key)", leftOut: &leftOut) { kept[key] = value }
            }
            return .map(kept)
        default:
            return self
        }
    }
}

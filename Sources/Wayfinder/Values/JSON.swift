import OrderedCollections

/// JSON for `Value`, written by hand for two properties Foundation does not promise: integers
/// and floats stay distinct both ways (`3` is an int, `3.0` a float), and object keys keep their
/// order. Handles cannot be written.
public enum JSON {
    /// Text that is not JSON, or JSON that is not a value.
    public struct DecodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The byte offset where reading stopped.
        public let offset: Int
        /// Why.
        public let reason: String
        /// The offset and the reason, in one sentence.
        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// A value that JSON cannot hold (a handle, a number that is not finite).
    public struct EncodingError: Error, Equatable, Sendable, CustomStringConvertible {
        /// Why.
        public let reason: String
        /// The reason.
        public var description: String { reason }
    }

    // MARK: Encoding

    /// The most levels of arrays and objects a document may nest, written or read: both walk a
    /// value by recursion, one level a call.
    public static let maximumDepth = 512

    /// `value` as JSON text.
    public static func encode(_ value: Value) throws(EncodingError) -> String {
        var out = ""
        try write(value, depth: 0, into: &out)
        return out
    }

    private static func write(_ value: Value, depth: Int, into out: inout String) throws(EncodingError) {
        guard depth < maximumDepth else { throw EncodingError(reason: "a value nested deeper than \(maximumDepth) levels cannot be written as JSON") }
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d):
            guard d.isFinite else { throw EncodingError(reason: "\(d) cannot be written as JSON") }
            out += d.description
        case .string(let s): writeString(s, into: &out)
        case .array(let list):
            out += "["
            for (index, element) in list.enumerated() {
                if index > 0 { out += "," }
                try write(element, depth: depth + 1, into: &out)
            }
            out += "]"
        case .map(let map):
            out += "{"
            for (index, (key, element)) in map.enumerated() {
                if index > 0 { out += "," }
                writeString(key, into: &out)
                out += ":"
                try write(element, depth: depth + 1, into: &out)
            }
            out += "}"
        case .handle(let h):
            throw EncodingError(reason: "a \(h.kind) is held by reference and cannot be written as JSON")
        }
    }

    private static func writeString(_ text: String, into out: inout String) {
        out += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    // MARK: Decoding

    /// The value `text` holds.
    public static func decode(_ text: String) throws(DecodingError) -> Value {
        try decode(bytes: Array(text.utf8))
    }

    /// Bytes as they were read: a string in them that is not UTF-8 is an error, not repaired.
    public static func decode(bytes: [UInt8]) throws(DecodingError) -> Value {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        let value = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == reader.bytes.count else { throw reader.error("unexpected text after the value") }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(bytes: [UInt8]) { self.bytes = bytes }

        func error(_ reason: String) -> DecodingError { DecodingError(offset: index, reason: reason) }

        mutating func skipSpace() {
            // A switch, not a membership test of a literal array: this runs between every two tokens.
            while index < bytes.count {
                switch bytes[index] {
                case 0x20, 0x09, 0x0A, 0x0D: index += 1
                default: return
                }
            }
        }

        mutating func expect(_ literal: String) throws(DecodingError) {
            let expected = literal.utf8
            guard index + expected.count <= bytes.count, bytes[index..<index + expected.count].elementsEqual(expected) else {
                throw error("expected '\(literal)'")
            }
            index += expected.count
        }

        mutating func value(depth: Int) throws(DecodingError) -> Value {
            guard depth < JSON.maximumDepth else { throw error("nested deeper than \(JSON.maximumDepth) levels") }
            guard index < bytes.count else { throw error("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "n"): try expect("null"); return .null
            case UInt8(ascii: "t"): try expect("true"); return .bool(true)
            case UInt8(ascii: "f"): try expect("false"); return .bool(false)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "["):
                index += 1
                var list = [Value]()
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return .array(list) }
                while true {
                    skipSpace()
                    list.append(try value(depth: depth + 1))
                    skipSpace()
                    guard index < bytes.count else { throw error("unterminated array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return .array(list) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "{"):
                index += 1
                var map = OrderedDictionary<String, Value>()
                skipSpace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return .map(map) }
                while true {
                    skipSpace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
                    let key = try string()
                    skipSpace()
                    try expect(":")
                    skipSpace()
                    map[key] = try value(depth: depth + 1)
                    skipSpace()
                    guard index < bytes.count else { throw error("unterminated object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return .map(map) }
                    throw error("expected ',' or '}'")
                }
            default:
                return try number()
            }
        }

        mutating func number() throws(DecodingError) -> Value {
            let start = index
            var isFloat = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw error("unexpected character") }
            if bytes[digitsStart] == UInt8(ascii: "0") && index - digitsStart > 1 { throw error("leading zeros are not JSON") }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                isFloat = true
                index += 1
                let fractionStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > fractionStart else { throw error("a fraction needs digits") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                isFloat = true
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponentStart = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > exponentStart else { throw error("an exponent needs digits") }
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if !isFloat, let int = Int64(text) { return .int(int) }
            guard let double = Double(text), double.isFinite else { throw error("number '\(text)' is out of range") }
            return .double(double)
        }

        mutating func string() throws(DecodingError) -> String {
            index += 1
            var out = [UInt8]()
            while true {
                guard index < bytes.count else { throw error("unterminated string") }
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    guard let text = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                    return text
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw error("unterminated escape") }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escape)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "u"):
                        var scalar = try hex4()
                        if (0xD800..<0xDC00).contains(scalar) {
                            try expect("\\u")
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw error("unpaired surrogate") }
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                        out.append(contentsOf: Array(String(Character(unicode)).utf8))
                    default: throw error("invalid escape")
                    }
                case 0..<0x20:
                    throw error("control character in a string")
                default:
                    out.append(byte)
                }
            }
        }

        mutating func hex4() throws(DecodingError) -> UInt32 {
            guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
                throw error("\\u needs four hex digits")
            }
            index += 4
            return value
        }
    }
}

import Foundation

/// Object IDs made safe for a path segment: base64url (RFC 4648 §5) without padding.
///
/// Decoding is strict so that one object has exactly one token: no padding, no standard-alphabet
/// characters, no white space, no length of 1 mod 4, and the unused low bits of the last character
/// must be zero. Foundation does the base64 arithmetic; the checks here add the strictness it lacks.
public enum ObjectID {
    /// The token for `text`'s UTF-8 bytes.
    public static func encode(_ text: String) -> String { encode(bytes: Array(text.utf8)) }

    /// Any bytes; `decode(bytes:)` gives them back, `decode` only when they are UTF-8 text.
    public static func encode(bytes: [UInt8]) -> String {
        var token = Data(bytes).base64EncodedString()
        token = token.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
        while token.hasSuffix("=") { token.removeLast() }
        return token
    }

    /// The text a token holds; a token of bytes that are not UTF-8 is malformed here (the `id`
    /// param type, whose value is text).
    public static func decode(_ token: String) throws(CodecError) -> String {
        let data = try decode(bytes: token)
        guard let text = String(validating: data, as: UTF8.self) else {
            throw .malformedToken("the decoded bytes are not valid UTF-8")
        }
        return text
    }

    /// The bytes a token holds, whatever they are: every byte string round-trips.
    public static func decode(bytes token: String) throws(CodecError) -> [UInt8] {
        let bytes = Array(token.utf8)
        var standard = [UInt8]()
        standard.reserveCapacity(bytes.count + 3)
        for (offset, byte) in bytes.enumerated() {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                standard.append(byte)
            case UInt8(ascii: "-"): standard.append(UInt8(ascii: "+"))
            case UInt8(ascii: "_"): standard.append(UInt8(ascii: "/"))
            case UInt8(ascii: "="): throw .malformedToken("padding '=' at \(offset) is not part of a token")
            default:
                throw .malformedToken("character \(describe(byte)) at \(offset) is not in the base64url alphabet")
            }
        }
        let remainder = bytes.count % 4
        if remainder == 1 { throw .malformedToken("a length of 1 mod 4 is never valid") }
        if let last = bytes.last, remainder != 0 {
            // 2 leftover characters carry 1 byte (4 spare bits), 3 carry 2 bytes (2 spare bits).
            let spareMask: UInt8 = remainder == 2 ? 0x0F : 0x03
            if sextet(last) & spareMask != 0 {
                throw .malformedToken("non-canonical: the unused low bits of the last character must be zero")
            }
        }
        if remainder != 0 { standard.append(contentsOf: repeatElement(UInt8(ascii: "="), count: 4 - remainder)) }
        guard let data = Data(base64Encoded: Data(standard)) else {
            throw .malformedToken("not base64url")
        }
        return Array(data)
    }

    private static func sextet(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): return byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): return byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "-"): return 62
        default: return 63
        }
    }

    private static func describe(_ byte: UInt8) -> String {
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "0x" + String(byte, radix: 16, uppercase: true)
    }
}

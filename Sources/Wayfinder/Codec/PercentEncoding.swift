/// Percent-encoding as docs/matching.md uses it: decoding is strict (a bad escape is an error, never
/// passed through) and the result must be UTF-8; encoding keeps only RFC 3986's unreserved
/// characters, so an encoded value is safe in any position (host, segment, query, fragment).
public enum PercentEncoding {
    /// `text` with every byte outside the unreserved set written as `%XX`.
    public static func escape(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        escape(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Appends the escaped bytes of `text` to `out` (a key built of several parts is built in one
    /// buffer).
    static func escape(_ text: String, into out: inout [UInt8]) {
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
    }

    /// `text` with its `%XX` escapes decoded; throws when an escape is malformed or the result is not UTF-8.
    public static func unescape(_ text: String) throws(CodecError) -> String {
        try unescape(text.utf8[...])
    }

    /// Decodes one component. `offsetBase` shifts reported offsets so they point into the whole URL.
    public static func unescape(_ bytes: Substring.UTF8View, offsetBase: Int = 0) throws(CodecError) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else {
            // The bytes are already a string's; only a slice cut inside a character can be invalid.
            guard let text = String(bytes) else { throw .invalidUTF8 }
            return text
        }
        return try decode(bytes, offsetBase: offsetBase, refusingControlCharacters: false)
    }

    /// Decodes one component of a URL read in place. The slice must start and end at ASCII bytes
    /// of valid UTF-8 (as a URL's delimiters do), so without a `%` it is a string as it stands.
    /// An escape of a control character is refused, as the raw character is in a URL.
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, offsetBase: Int) throws(CodecError) -> String {
        guard bytes.contains(UInt8(ascii: "%")) else { return String(decoding: bytes, as: UTF8.self) }
        return try decode(bytes, offsetBase: offsetBase, refusingControlCharacters: true)
    }

    private static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, offsetBase: Int, refusingControlCharacters: Bool) throws(CodecError) -> String {
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        var offset = 0
        while index != bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                let first = bytes.index(after: index)
                guard first != bytes.endIndex, let high = hexValue(bytes[first]) else {
                    throw .invalidPercentEscape(offset: offsetBase + offset)
                }
                let second = bytes.index(after: first)
                guard second != bytes.endIndex, let low = hexValue(bytes[second]) else {
                    throw .invalidPercentEscape(offset: offsetBase + offset)
                }
                let decoded = high << 4 | low
                // A C1 control (C2 80 to C2 9F) is refused too: its second byte ends it.
                if refusingControlCharacters && (decoded < 0x20 || decoded == 0x7F
                    || ((0x80...0x9F).contains(decoded) && out.last == 0xC2)) {
                    throw .encodedControlCharacter(offset: offsetBase + offset)
                }
                out.append(decoded)
                index = bytes.index(after: second)
                offset += 3
            } else {
                out.append(byte)
                index = bytes.index(after: index)
                offset += 1
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw .invalidUTF8 }
        return text
    }

    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)
}

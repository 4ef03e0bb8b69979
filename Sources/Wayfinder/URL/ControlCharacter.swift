/// The characters a URL may not carry, raw or percent-encoded, in any part: the C0 controls
/// (U+0000–U+001F), DEL and the C1 controls (U+0080–U+009F). A C1 control is two bytes in UTF-8,
/// `C2 80` to `C2 9F`; `C2` starts no other character, so a byte pair is enough to tell.
public enum ControlCharacter {
    /// Whether `scalar` is one of them.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// The offset of the first control character in UTF-8 `bytes`, or nil.
    static func firstOffset<Bytes: Collection<UInt8>>(in bytes: Bytes) -> Int? where Bytes.Index == Int {
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte < 0x20 || byte == 0x7F { return index - bytes.startIndex }
            if byte == 0xC2, index + 1 < bytes.endIndex, (0x80...0x9F).contains(bytes[index + 1]) { return index - bytes.startIndex }
            index += 1
        }
        return nil
    }

    static func firstOffset(in text: String) -> Int? { firstOffset(in: Array(text.utf8)) }
}

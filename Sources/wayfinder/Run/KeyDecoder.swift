/// Turns the bytes a terminal sends in raw mode into keys: text (UTF-8), Enter, Backspace, the
/// arrows, Home/End/Delete in their common spellings (`ESC [ A`, `ESC O A`, `ESC [ 3 ~`, ...),
/// and the control keys the line editor knows. Every other escape sequence is read to its end
/// and dropped, so an unknown key never reaches the command line as text. A sequence cut
/// between two reads waits for the rest, except a lone ESC at the end of a read: a terminal
/// writes a key's whole sequence at once, so an ESC with nothing after it is the Escape key, and
/// it is dropped rather than left to swallow whatever key comes next, however much later.
struct KeyDecoder {
    enum Key: Equatable {
        case text(String)
        case enter, backspace, delete
        case left, right, up, down, home, end
        /// Ctrl-U, Ctrl-K, Ctrl-W: delete to the start, to the end, the word before the cursor.
        case deleteToStart, deleteToEnd, deleteWord
        /// Ctrl-D: end of input on an empty line, else Delete.
        case endOfInput
        /// Ctrl-C.
        case interrupt
    }

    private var pending: [UInt8] = []

    /// The keys in `bytes`, after whatever an earlier call left incomplete.
    mutating func keys(_ bytes: [UInt8]) -> [Key] {
        pending += bytes
        var keys: [Key] = []
        var i = 0
        while i < pending.count {
            guard let (key, length) = Self.decode(pending[i...]) else { break }
            if let key { keys.append(key) }
            i += length
        }
        pending.removeFirst(i)
        if pending == [0x1B] { pending.removeAll() }
        return keys
    }

    /// The key at the start of `bytes` (nil for one that is dropped) and how many bytes it took,
    /// or nil when the bytes end before the key does.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        let first = bytes[start]
        switch first {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x01: return (.home, 1)
        case 0x05: return (.end, 1)
        case 0x02: return (.left, 1)
        case 0x06: return (.right, 1)
        case 0x10: return (.up, 1)
        case 0x0E: return (.down, 1)
        case 0x15: return (.deleteToStart, 1)
        case 0x0B: return (.deleteToEnd, 1)
        case 0x17: return (.deleteWord, 1)
        case 0x04: return (.endOfInput, 1)
        case 0x03: return (.interrupt, 1)
        case 0x1B: return escape(bytes)
        case 0x00..<0x20: return (nil, 1)
        default: return text(bytes)
        }
    }

    /// One UTF-8 character; a byte that cannot start or continue one is dropped.
    private static func text(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let first = bytes[bytes.startIndex]
        let length: Int
        switch first {
        case 0x20..<0x80: length = 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return (nil, 1)
        }
        guard bytes.count >= length else { return nil }
        let character = bytes.prefix(length)
        guard character.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }), let string = String(validating: Array(character), as: UTF8.self) else {
            return (nil, 1)
        }
        return (.text(string), length)
    }

    /// `ESC [ params final` (CSI) or `ESC O final` (SS3); anything else after ESC is one dropped
    /// pair (Alt and a key).
    private static func escape(_ bytes: ArraySlice<UInt8>) -> (Key?, Int)? {
        let start = bytes.startIndex
        guard bytes.count >= 2 else { return nil }
        let kind = bytes[start + 1]
        if kind == UInt8(ascii: "O") {
            guard bytes.count >= 3 else { return nil }
            return (final(bytes[start + 2], parameters: []), 3)
        }
        guard kind == UInt8(ascii: "[") else { return (nil, 2) }
        // Parameter and intermediate bytes run until a final byte in 0x40...0x7E.
        var i = start + 2
        while i < bytes.endIndex {
            let byte = bytes[i]
            if (0x40...0x7E).contains(byte) {
                let parameters = String(decoding: bytes[(start + 2)..<i], as: UTF8.self)
                return (final(byte, parameters: parameters.split(separator: ";").map(String.init)), i - start + 1)
            }
            guard (0x20...0x3F).contains(byte) else { return (nil, i - start) }
            i += 1
        }
        return nil
    }

    private static func final(_ byte: UInt8, parameters: [String]) -> Key? {
        switch byte {
        case UInt8(ascii: "A"): return .up
        case UInt8(ascii: "B"): return .down
        case UInt8(ascii: "C"): return .right
        case UInt8(ascii: "D"): return .left
        case UInt8(ascii: "H"): return .home
        case UInt8(ascii: "F"): return .end
        case UInt8(ascii: "~"):
            switch parameters.first {
            case "1", "7": return .home
            case "4", "8": return .end
            case "3": return .delete
            default: return nil
            }
        default: return nil
        }
    }
}

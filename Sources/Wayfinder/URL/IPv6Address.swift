/// Whether the text between an IPv6 host's brackets is an IPv6 address (RFC 4291 §2.2 text form,
/// as RFC 3986's IPv6address): up to eight groups of one to four hex digits, at most one `::`
/// standing for the missing groups, and optionally a dotted IPv4 address as the last 32 bits. One
/// rule for URLs and patterns, so a host a pattern accepts is one a URL can have.
enum IPv6Address {
    static func isValid(_ text: String) -> Bool {
        let halves = text.components(separatedBy: "::")
        switch halves.count {
        case 1:
            return groups(halves[0], last: true) == 8
        case 2:
            guard let head = halves[0].isEmpty ? 0 : groups(halves[0], last: false),
                  let tail = halves[1].isEmpty ? 0 : groups(halves[1], last: true) else { return false }
            return head + tail <= 7
        default:
            return false
        }
    }

    /// How many 16-bit groups `text` holds (a trailing IPv4 address counts two), nil when a group
    /// is malformed.
    private static func groups(_ text: String, last: Bool) -> Int? {
        let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
        var count = 0
        for (index, piece) in pieces.enumerated() {
            if last && index == pieces.count - 1 && piece.contains(".") {
                guard isIPv4(piece) else { return nil }
                count += 2
                continue
            }
            guard !piece.isEmpty, piece.count <= 4, piece.unicodeScalars.allSatisfy({ $0.properties.isASCIIHexDigit }) else { return nil }
            count += 1
        }
        return count
    }

    private static func isIPv4(_ text: Substring) -> Bool {
        let octets = text.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy({ $0.isASCII && $0.isNumber })
                && (octet.count == 1 || octet.first != "0") && (Int(octet) ?? 256) <= 255
        }
    }
}

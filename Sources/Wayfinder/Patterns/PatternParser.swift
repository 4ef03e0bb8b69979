/// Reads pattern text into a `Pattern` (grammar in docs/matching.md). Knows which type names exist, so
/// an unknown type is reported when the route is registered, not when a URL first reaches it.
///
/// The text is read as UTF-8 bytes, as a URL is (`NavigationURL`): every delimiter is ASCII, which
/// never occurs inside a multi-byte character, so a component is a range of byte offsets, which is
/// also how the pattern keeps it. An app registers its routes at every launch, so this is on the
/// path of every start.
struct PatternParser {
    let knownTypes: (String) -> Bool

    func parse(_ text: String) throws(PatternError) -> Pattern {
        if text == "*" { return .defaultRoute }
        guard !text.isEmpty else { throw PatternError(pattern: text, reason: "a pattern cannot be empty") }
        return try Reading(text: text, knownTypes: knownTypes).pattern()
    }
}

/// One pattern's text being read: its bytes, and the errors it reports.
private struct Reading {
    let text: String
    let bytes: [UInt8]
    let knownTypes: (String) -> Bool

    init(text: String, knownTypes: @escaping (String) -> Bool) {
        self.text = text
        bytes = Array(text.utf8)
        self.knownTypes = knownTypes
    }

    func fail(_ reason: String) -> PatternError { PatternError(pattern: text, reason: reason) }

    /// The text of a range of bytes (whole characters: it starts and ends at ASCII delimiters or
    /// the ends of the text).
    func string(_ range: Range<Int>) -> String {
        bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[range]), as: UTF8.self) }
    }

    func first(_ byte: UInt8, in range: Range<Int>) -> Int? {
        range.first { bytes[$0] == byte }
    }

    func contains(_ byte: UInt8, in range: Range<Int>) -> Bool {
        first(byte, in: range) != nil
    }

    func pattern() throws(PatternError) -> Pattern {
        if let offset = ControlCharacter.firstOffset(in: bytes) {
            // Shown escaped: the raw character could rewrite the terminal the message is printed on.
            let shown = text.unicodeScalars.map { scalar -> String in
                guard scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) else { return String(scalar) }
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "\\x" + (hex.count < 2 ? "0" : "") + hex
            }.joined()
            throw PatternError(pattern: shown, reason: "control character at byte \(offset)")
        }
        guard let separator = schemeSeparator() else {
            throw fail("a pattern is '*' or starts with a scheme and '://' (as in 'tt://menu/(id:int)')")
        }
        let scheme = string(0..<separator)
        guard isScheme(0..<separator)
        else { throw fail("'\(scheme)' is not a scheme (a letter, then letters, digits, '+', '-' or '.')") }

        var rest = (separator + 3)..<bytes.count
        var fragmentText: Range<Int>?
        var queryText: Range<Int>?
        if let hash = try firstOutsideParams(UInt8(ascii: "#"), in: rest) {
            fragmentText = (hash + 1)..<rest.upperBound
            rest = rest.lowerBound..<hash
        }
        if let question = try firstOutsideParams(UInt8(ascii: "?"), in: rest) {
            queryText = (question + 1)..<rest.upperBound
            rest = rest.lowerBound..<question
        }
        let hostEnd = first(UInt8(ascii: "/"), in: rest) ?? rest.upperBound
        let authority = rest.lowerBound..<hostEnd
        if contains(UInt8(ascii: "@"), in: authority) {
            // A URL with userinfo is refused, so a pattern with it could never match.
            throw fail("a pattern cannot have userinfo ('name@' before the host), which URLs may not have")
        }
        let (hostText, port) = try splitPort(authority, scheme: NavigationURL.asciiLowercased(scheme))
        guard !hostText.isEmpty else { throw fail("the host is missing (write a literal host or a param such as '(user)')") }

        var names = Set<String>()
        func component(_ piece: Range<Int>, _ place: String) throws(PatternError) -> Pattern.Placed {
            let parsed = try parseComponent(piece, place: place)
            if case .param(let param) = parsed {
                if let name = param.name {
                    guard names.insert(name).inserted else { throw fail("the param name '\(name)' is used twice") }
                }
                if param.isCatchAll && place != "path" {
                    throw fail("a 'path' catch-all can only be the last path component, not in the \(place)")
                }
            }
            return (parsed, piece)
        }

        let host = try component(hostText, "host")
        var path = [Pattern.Placed]()
        var segmentStart = hostEnd + 1
        while segmentStart <= rest.upperBound {
            let segmentEnd = first(UInt8(ascii: "/"), in: segmentStart..<rest.upperBound) ?? rest.upperBound
            if segmentEnd > segmentStart {
                if let last = path.last, let param = last.component.param, param.isCatchAll {
                    throw fail("a 'path' catch-all can only be the last path component")
                }
                guard path.count < Pattern.maximumPathSegments else {
                    throw fail("a pattern has at most \(Pattern.maximumPathSegments) path segments")
                }
                path.append(try component(segmentStart..<segmentEnd, "path"))
            }
            segmentStart = segmentEnd + 1
        }
        var query = [(key: Range<Int>, value: Pattern.Placed)]()
        var keys = Set<String>()
        if let queryText {
            var pairStart = queryText.lowerBound
            while pairStart <= queryText.upperBound {
                var pairEnd = pairStart
                while pairEnd < queryText.upperBound, bytes[pairEnd] != UInt8(ascii: "&"), bytes[pairEnd] != UInt8(ascii: ";") { pairEnd += 1 }
                defer { pairStart = pairEnd + 1 }
                let pair = pairStart..<pairEnd
                guard !pair.isEmpty else { continue }
                guard let equals = first(UInt8(ascii: "="), in: pair) else {
                    throw fail("query component '\(string(pair))' needs the form key=value or key=(param)")
                }
                let keyText = pair.lowerBound..<equals
                // Keys are literal: a URL's query is looked up by key, so a param there could bind nothing.
                if contains(UInt8(ascii: "("), in: keyText) || contains(UInt8(ascii: ")"), in: keyText) {
                    throw fail("query key '\(string(keyText))': a query key cannot be a param; write the key and put the param after '=', as in 'k=(k)'")
                }
                let key = try decodeLiteral(keyText)
                guard !key.isEmpty else { throw fail("query component '\(string(pair))' has an empty key") }
                guard keys.insert(key).inserted else { throw fail("the query key '\(key)' appears twice") }
                query.append((keyText, try component((equals + 1)..<pair.upperBound, "query")))
            }
        }
        let fragment = try fragmentText.map { (piece) throws(PatternError) in try component(piece, "fragment") }
        return Pattern(text: text, host: host, port: port, path: path, query: query, fragment: fragment)
    }

    /// The offset of the first "://".
    private func schemeSeparator() -> Int? {
        guard bytes.count >= 3 else { return nil }
        return (0...(bytes.count - 3)).first {
            bytes[$0] == UInt8(ascii: ":") && bytes[$0 + 1] == UInt8(ascii: "/") && bytes[$0 + 2] == UInt8(ascii: "/")
        }
    }

    /// Takes `:port` off the host piece: after a param's `)`, an IPv6 host's `]`, or a literal's
    /// last `:`. The scheme's default port is the same as none.
    private func splitPort(_ piece: Range<Int>, scheme: String) throws(PatternError) -> (Range<Int>, Int?) {
        let hostEnd: Int
        switch piece.isEmpty ? nil : bytes[piece.lowerBound] {
        case UInt8(ascii: "("):
            guard let close = first(UInt8(ascii: ")"), in: piece) else { return (piece, nil) }
            hostEnd = close + 1
        case UInt8(ascii: "["):
            guard let close = first(UInt8(ascii: "]"), in: piece) else { throw fail("an IPv6 host needs its closing ']'") }
            let address = string((piece.lowerBound + 1)..<close)
            guard IPv6Address.isValid(address) else { throw fail("'[\(address)]' is not an IPv6 address") }
            hostEnd = close + 1
        default:
            guard let colon = piece.last(where: { bytes[$0] == UInt8(ascii: ":") }) else { return (piece, nil) }
            hostEnd = colon
        }
        let rest = hostEnd..<piece.upperBound
        if rest.isEmpty { return (piece.lowerBound..<hostEnd, nil) }
        guard bytes[hostEnd] == UInt8(ascii: ":") else { throw fail("only ':' and a port may follow the host, not '\(string(rest))'") }
        let digits = (hostEnd + 1)..<piece.upperBound
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ bytes[$0] >= UInt8(ascii: "0") && bytes[$0] <= UInt8(ascii: "9") }),
              let port = Int(string(digits)), port <= 65535 else {
            throw fail("'\(string(digits))' is not a port (a number from 0 to 65535)")
        }
        return (piece.lowerBound..<hostEnd, port == NavigationURL.defaultPort(for: scheme) ? nil : port)
    }

    private func firstOutsideParams(_ mark: UInt8, in range: Range<Int>) throws(PatternError) -> Int? {
        var depth = 0
        for index in range {
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1; if depth > 1 { throw fail("params cannot nest") }
            case UInt8(ascii: ")"): depth -= 1; if depth < 0 { throw fail("')' without '('") }
            case mark where depth == 0: return index
            default: break
            }
        }
        if depth != 0 { throw fail("'(' without ')'") }
        return nil
    }

    private func parseComponent(_ piece: Range<Int>, place: String) throws(PatternError) -> Pattern.Component {
        let open = UInt8(ascii: "("), close = UInt8(ascii: ")")
        guard !piece.isEmpty, bytes[piece.lowerBound] == open else {
            if contains(open, in: piece) || contains(close, in: piece) {
                throw fail("'\(string(piece))': a param must be a whole component, as in '(name)'")
            }
            let literal = try decodeLiteral(piece)
            guard !literal.isEmpty else { throw fail("an empty \(place) component") }
            return .literal(literal)
        }
        guard piece.count >= 2, bytes[piece.upperBound - 1] == close else {
            throw fail("'\(string(piece))': a param must be a whole component, as in '(name)'")
        }
        let inner = (piece.lowerBound + 1)..<(piece.upperBound - 1)
        guard !contains(open, in: inner), !contains(close, in: inner) else { throw fail("'\(string(piece))': params cannot nest") }
        let name: Range<Int>
        var type = ParamType.stringName
        if let colon = first(UInt8(ascii: ":"), in: inner) {
            name = inner.lowerBound..<colon
            let typeText = (colon + 1)..<inner.upperBound
            if !typeText.isEmpty {
                guard isIdentifier(typeText, allowDots: false) else { throw fail("'\(string(typeText))' is not a type name") }
                type = string(typeText)
            }
        } else {
            name = inner
        }
        if !name.isEmpty && !isIdentifier(name, allowDots: true) {
            throw fail("'\(string(name))' is not a param name (letters, digits, '_' and '.', not starting with a digit)")
        }
        guard knownTypes(type) else {
            throw fail("unknown param type '\(type)' (built in: string, int, number, bool, id, path; others must be registered with map:type first)")
        }
        return .param(.init(name: name.isEmpty ? nil : string(name), type: type))
    }

    private func decodeLiteral(_ range: Range<Int>) throws(PatternError) -> String {
        let raw = string(range)
        let literal: String
        do {
            literal = try PercentEncoding.unescape(raw)
        } catch {
            throw fail("literal '\(raw)': \(error)")
        }
        // No URL can carry one (URLs with encoded control characters are refused), so it could never match.
        if NavigationURL.hasControlCharacter(literal) { throw fail("literal '\(raw)' decodes to a control character") }
        return literal
    }

    private func isScheme(_ range: Range<Int>) -> Bool {
        guard let first = range.first, isASCIILetter(bytes[first]) else { return false }
        return range.allSatisfy {
            let byte = bytes[$0]
            return isASCIILetter(byte) || isDigit(byte) || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
    }

    private func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    /// ASCII letters, digits and `_` (and `.` when `allowDots`), not starting with a digit or a dot.
    private func isIdentifier(_ range: Range<Int>, allowDots: Bool) -> Bool {
        guard let first = range.first, bytes[first] == UInt8(ascii: "_") || isASCIILetter(bytes[first]) else { return false }
        return range.allSatisfy {
            let byte = bytes[$0]
            return isASCIILetter(byte) || isDigit(byte) || byte == UInt8(ascii: "_") || (allowDots && byte == UInt8(ascii: "."))
        }
    }
}

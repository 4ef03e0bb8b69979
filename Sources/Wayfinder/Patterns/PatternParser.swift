/// Reads pattern text into a `Pattern` (grammar in docs/matching.md). Knows which type names exist, so
/// an unknown type is reported when the route is registered, not when a URL first reaches it.
struct PatternParser {
    let knownTypes: (String) -> Bool

    func parse(_ text: String) throws(PatternError) -> Pattern {
        func fail(_ reason: String) -> PatternError { PatternError(pattern: text, reason: reason) }
        if text == "*" { return .defaultRoute }
        guard !text.isEmpty else { throw fail("a pattern cannot be empty") }
        if let offset = ControlCharacter.firstOffset(in: text) {
            // Shown escaped: the raw character could rewrite the terminal the message is printed on.
            let shown = text.unicodeScalars.map { scalar -> String in
                guard scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) else { return String(scalar) }
                let hex = String(scalar.value, radix: 16, uppercase: true)
                return "\\x" + (hex.count < 2 ? "0" : "") + hex
            }.joined()
            throw PatternError(pattern: shown, reason: "control character at byte \(offset)")
        }
        guard let separator = text.range(of: "://") else {
            throw fail("a pattern is '*' or starts with a scheme and '://' (as in 'tt://menu/(id:int)')")
        }
        let scheme = String(text[..<separator.lowerBound])
        guard isScheme(scheme)
        else { throw fail("'\(scheme)' is not a scheme (a letter, then letters, digits, '+', '-' or '.')") }

        var rest = Substring(text[separator.upperBound...])
        var fragmentText: Substring?
        var queryText: Substring?
        if let hash = try firstOutsideParams("#", in: rest, fail) {
            fragmentText = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = try firstOutsideParams("?", in: rest, fail) {
            queryText = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        var pieces = rest.split(separator: "/", omittingEmptySubsequences: false)
        if pieces[0].contains("@") {
            // A URL with userinfo is refused, so a pattern with it could never match.
            throw fail("a pattern cannot have userinfo ('name@' before the host), which URLs may not have")
        }
        let (hostText, port) = try splitPort(pieces.removeFirst(), scheme: scheme.lowercased(), fail)
        guard !hostText.isEmpty else { throw fail("the host is missing (write a literal host or a param such as '(user)')") }

        var names = Set<String>()
        func component(_ piece: Substring, _ place: String) throws(PatternError) -> Pattern.Component {
            let parsed = try parseComponent(piece, place: place, fail)
            if case .param(let param) = parsed {
                if let name = param.name {
                    guard names.insert(name).inserted else { throw fail("the param name '\(name)' is used twice") }
                }
                if param.isCatchAll && place != "path" {
                    throw fail("a 'path' catch-all can only be the last path component, not in the \(place)")
                }
            }
            return parsed
        }

        /// Where a piece of the text sits in it, in UTF-8 offsets, as the pattern keeps it.
        func placed(_ component: Pattern.Component, _ piece: Substring) -> Pattern.Placed {
            let start = text.utf8.distance(from: text.startIndex, to: piece.startIndex)
            return (component, start..<(start + piece.utf8.count))
        }

        let host = placed(try component(hostText, "host"), hostText)
        var path = [Pattern.Placed]()
        let segments = pieces.filter { !$0.isEmpty }
        for (index, segment) in segments.enumerated() {
            let parsed = try component(segment, "path")
            if let param = parsed.param, param.isCatchAll, index != segments.count - 1 {
                throw fail("a 'path' catch-all can only be the last path component")
            }
            path.append(placed(parsed, segment))
        }
        var query = [(key: Range<Int>, value: Pattern.Placed)]()
        var keys = Set<String>()
        if let queryText {
            for pair in queryText.split(whereSeparator: { $0 == "&" || $0 == ";" }) {
                guard let equals = pair.firstIndex(of: "=") else {
                    throw fail("query component '\(pair)' needs the form key=value or key=(param)")
                }
                let keyText = pair[..<equals]
                // Keys are literal: a URL's query is looked up by key, so a param there could bind nothing.
                if keyText.contains("(") || keyText.contains(")") {
                    throw fail("query key '\(keyText)': a query key cannot be a param; write the key and put the param after '=', as in 'k=(k)'")
                }
                let key = try decodeLiteral(keyText, fail)
                guard !key.isEmpty else { throw fail("query component '\(pair)' has an empty key") }
                guard keys.insert(key).inserted else { throw fail("the query key '\(key)' appears twice") }
                let valueText = pair[pair.index(after: equals)...]
                query.append((placed(.literal(key), keyText).range, placed(try component(valueText, "query"), valueText)))
            }
        }
        let fragment = try fragmentText.map { (piece) throws(PatternError) in placed(try component(piece, "fragment"), piece) }
        return Pattern(text: text, host: host, port: port, path: path, query: query, fragment: fragment)
    }

    /// Takes `:port` off the host piece: after a param's `)`, an IPv6 host's `]`, or a literal's
    /// last `:`. The scheme's default port is the same as none.
    private func splitPort(_ piece: Substring, scheme: String, _ fail: (String) -> PatternError) throws(PatternError) -> (Substring, Int?) {
        let hostEnd: Substring.Index
        switch piece.first {
        case "(":
            guard let close = piece.firstIndex(of: ")") else { return (piece, nil) }
            hostEnd = piece.index(after: close)
        case "[":
            guard let close = piece.firstIndex(of: "]") else { throw fail("an IPv6 host needs its closing ']'") }
            let address = String(piece[piece.index(after: piece.startIndex)..<close])
            guard IPv6Address.isValid(address) else { throw fail("'[\(address)]' is not an IPv6 address") }
            hostEnd = piece.index(after: close)
        default:
            guard let colon = piece.lastIndex(of: ":") else { return (piece, nil) }
            hostEnd = colon
        }
        let rest = piece[hostEnd...]
        if rest.isEmpty { return (piece[..<hostEnd], nil) }
        guard rest.first == ":" else { throw fail("only ':' and a port may follow the host, not '\(rest)'") }
        let digits = rest.dropFirst()
        guard !digits.isEmpty, digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits), port <= 65535 else {
            throw fail("'\(digits)' is not a port (a number from 0 to 65535)")
        }
        return (piece[..<hostEnd], port == NavigationURL.defaultPort(for: scheme) ? nil : port)
    }

    private func firstOutsideParams(_ mark: Character, in text: Substring, _ fail: (String) -> PatternError) throws(PatternError) -> Substring.Index? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "(": depth += 1; if depth > 1 { throw fail("params cannot nest") }
            case ")": depth -= 1; if depth < 0 { throw fail("')' without '('") }
            case mark where depth == 0: return index
            default: break
            }
        }
        if depth != 0 { throw fail("'(' without ')'") }
        return nil
    }

    private func parseComponent(_ piece: Substring, place: String, _ fail: (String) -> PatternError) throws(PatternError) -> Pattern.Component {
        guard piece.first == "(" else {
            if piece.contains("(") || piece.contains(")") {
                throw fail("'\(piece)': a param must be a whole component, as in '(name)'")
            }
            let literal = try decodeLiteral(piece, fail)
            guard !literal.isEmpty else { throw fail("an empty \(place) component") }
            return .literal(literal)
        }
        guard piece.last == ")", piece.count >= 2 else { throw fail("'\(piece)': a param must be a whole component, as in '(name)'") }
        let inner = piece.dropFirst().dropLast()
        guard !inner.contains("("), !inner.contains(")") else { throw fail("'\(piece)': params cannot nest") }
        let name: Substring
        var type = ParamType.stringName
        if let colon = inner.firstIndex(of: ":") {
            name = inner[..<colon]
            let typeText = inner[inner.index(after: colon)...]
            if !typeText.isEmpty {
                guard isIdentifier(typeText, allowDots: false) else { throw fail("'\(typeText)' is not a type name") }
                type = String(typeText)
            }
        } else {
            name = inner
        }
        if !name.isEmpty && !isIdentifier(name, allowDots: true) {
            throw fail("'\(name)' is not a param name (letters, digits, '_' and '.', not starting with a digit)")
        }
        guard knownTypes(type) else {
            throw fail("unknown param type '\(type)' (built in: string, int, number, bool, id, path; others must be registered with map:type first)")
        }
        return .param(.init(name: name.isEmpty ? nil : String(name), type: type))
    }

    private func decodeLiteral(_ text: Substring, _ fail: (String) -> PatternError) throws(PatternError) -> String {
        let literal: String
        do {
            literal = try PercentEncoding.unescape(text.utf8)
        } catch {
            throw fail("literal '\(text)': \(error)")
        }
        // No URL can carry one (URLs with encoded control characters are refused), so it could never match.
        if NavigationURL.hasControlCharacter(literal) { throw fail("literal '\(text)' decodes to a control character") }
        return literal
    }

    private func isScheme(_ text: String) -> Bool {
        guard let first = text.utf8.first, isASCIILetter(first) else { return false }
        return text.utf8.allSatisfy {
            isASCIILetter($0) || ($0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9"))
                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
        }
    }

    private func isASCIILetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    private func isIdentifier(_ text: Substring, allowDots: Bool) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic && first.isASCII else { return false }
        return text.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains(Character($0)) || $0 == "_" || (allowDots && $0 == "."))
        }
    }
}


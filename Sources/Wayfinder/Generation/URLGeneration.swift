/// URL generation (docs/matching.md, "Generating URLs"): a generator pattern filled from an object's
/// fields. Every value is encoded for its position and checked against its param's type, so
/// matching the generated URL gives back the values it was made from.
extension RouteTable {
    /// Checks that a pattern can generate URLs: not `*`, and every param named.
    public func generatorPattern(_ text: String) throws(PatternError) -> Pattern {
        let pattern = try parse(text)
        guard !pattern.isDefault else { throw PatternError(pattern: text, reason: "'*' cannot generate URLs") }
        guard pattern.orderedComponents.allSatisfy({ $0.param == nil || $0.param?.name != nil }) else {
            throw PatternError(pattern: text, reason: "an anonymous param '()' has no field to fill it from")
        }
        return pattern
    }

    /// Fills `pattern` with `field(name)` for each param (names may be dotted paths such as
    /// `album.title`; the caller resolves them). Errors call each value by `name` ("field 'id'").
    public func url(for pattern: Pattern, calling name: URLValueName = .field, field: (String) throws -> Value?) throws -> String {
        func fail(_ param: String?, _ reason: String) -> URLGenerationError {
            URLGenerationError(pattern: pattern.text, reason: reason, param: param)
        }
        var longest = (name: "", bytes: 0)

        func encoded(_ component: Pattern.Component) throws -> String {
            switch component {
            case .literal(let text):
                return PercentEncoding.escape(text)
            case .param(let param):
                let key = param.name ?? ""
                func noun() -> String { "\(name.rawValue) '\(key)'" }
                guard let value = try field(key), !value.isNull else { throw fail(key, "\(noun()) is nil") }
                let text: String
                switch value {
                case .string(let s) where param.type == "id":
                    text = ObjectID.encode(s)
                case .string(let s):
                    text = s
                case .int(let i) where param.type != "id":
                    text = String(i)
                case .double(let d) where param.type != "id":
                    if param.type == "int", let exact = Int64(exactly: d) { text = String(exact) } else { text = NumberText.format(d) }
                case .bool(let b) where param.type != "id":
                    text = b ? "true" : "false"
                default:
                    throw fail(key, "\(noun()) is a \(value.kindName), which cannot stand in a URL as a \(param.type)")
                }
                // Matching refuses URLs that carry them, so such a value could never come back.
                if NavigationURL.hasControlCharacter(text) {
                    throw fail(key, "\(noun()) has a control character, which a URL cannot carry")
                }
                if param.isCatchAll {
                    let pieces = text.split(separator: "/", omittingEmptySubsequences: false)
                    guard !pieces.contains(where: \.isEmpty) else {
                        throw fail(key, "\(noun()) = '\(text)' has an empty path segment, which a URL cannot carry")
                    }
                    return longestSoFar(key, pieces.map { PercentEncoding.escape(String($0)) }.joined(separator: "/"))
                }
                guard let converted = try convert(text, as: param.type) else {
                    throw fail(key, "\(noun()) = '\(text)' is not a valid \(param.type)")
                }
                // The round-trip promise: "007" given for an int would come back as 7.
                guard Self.sameValue(converted, value) else {
                    throw fail(key, "\(noun()) is the \(value.kindName) \(value), which would come back from the URL as the \(converted.kindName) \(converted) (the param's type is \(param.type))")
                }
                return longestSoFar(key, PercentEncoding.escape(text))
            }
        }

        func longestSoFar(_ name: String, _ encoded: String) -> String {
            if encoded.utf8.count > longest.bytes { longest = (name, encoded.utf8.count) }
            return encoded
        }

        var url = pattern.scheme + "://" + (try encoded(pattern.host)) + (pattern.port.map { ":" + String($0) } ?? "")
        for component in pattern.path { url += "/" + (try encoded(component)) }
        if !pattern.query.isEmpty {
            url += "?" + (try pattern.query.map { PercentEncoding.escape($0.key) + "=" + (try encoded($0.component)) }.joined(separator: "&"))
        }
        if let fragment = pattern.fragment { url += "#" + (try encoded(fragment)) }
        guard url.utf8.count <= NavigationURL.maximumLength else {
            throw fail(longest.name, "the URL would be \(url.utf8.count) bytes, longer than the 8 KiB limit of URLs that match (\(name.rawValue) '\(longest.name)' is \(longest.bytes) of them)")
        }
        return url
    }

    /// Equal as a script sees them: numbers by value, whether integer or float.
    private static func sameValue(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case let (.int(x), .double(y)), let (.double(y), .int(x)): return Double(x) == y && Int64(exactly: y) == x
        default: return a == b
        }
    }
}

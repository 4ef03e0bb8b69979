/// URL generation (MATCHING.md, "Generating URLs"): a generator pattern filled from an object's
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
    /// `album.title`; the caller resolves them).
    public func url(for pattern: Pattern, field: (String) throws -> Value?) throws -> String {
        func fail(_ reason: String) -> URLGenerationError { URLGenerationError(pattern: pattern.text, reason: reason) }

        func encoded(_ component: Pattern.Component) throws -> String {
            switch component {
            case .literal(let text):
                return PercentEncoding.escape(text)
            case .param(let param):
                let name = param.name ?? ""
                guard let value = try field(name), !value.isNull else { throw fail("field '\(name)' is nil") }
                let text: String
                switch value {
                case .string(let s):
                    text = param.type == "id" ? ObjectID.encode(s) : s
                case .int(let i) where param.type != "id":
                    text = String(i)
                case .double(let d) where param.type != "id":
                    if param.type == "int", let exact = Int64(exactly: d) { text = String(exact) } else { text = NumberText.format(d) }
                case .bool(let b) where param.type != "id":
                    text = b ? "true" : "false"
                default:
                    throw fail("field '\(name)' is a \(value.kindName), which cannot stand in a URL as a \(param.type)")
                }
                if param.isCatchAll {
                    let pieces = text.split(separator: "/", omittingEmptySubsequences: false)
                    guard !pieces.contains(where: \.isEmpty) else {
                        throw fail("field '\(name)' = '\(text)' has an empty path segment, which a URL cannot carry")
                    }
                    return pieces.map { PercentEncoding.escape(String($0)) }.joined(separator: "/")
                }
                guard try convert(text, as: param.type) != nil else {
                    throw fail("field '\(name)' = '\(text)' is not a valid \(param.type)")
                }
                return PercentEncoding.escape(text)
            }
        }

        var url = pattern.scheme + "://" + (try encoded(pattern.host))
        for component in pattern.path { url += "/" + (try encoded(component)) }
        if !pattern.query.isEmpty {
            url += "?" + (try pattern.query.map { PercentEncoding.escape($0.key) + "=" + (try encoded($0.component)) }.joined(separator: "&"))
        }
        if let fragment = pattern.fragment { url += "#" + (try encoded(fragment)) }
        return url
    }
}

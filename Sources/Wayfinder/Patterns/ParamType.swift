/// A param type: how one URL component's decoded text becomes a bound value (docs/matching.md, "Types").
/// Text that does not convert means "no match here": the matcher goes on to the next candidate.
public struct ParamType {
    /// The name of the string type, which takes any text of one segment.
    public static let stringName = "string"
    /// The name of the catch-all type, which takes the rest of the path.
    public static let pathName = "path"
    /// The names of the types every route table knows.
    public static let builtinNames: Set<String> = ["string", "int", "number", "bool", "id", "path"]

    /// The name patterns use for the type (`{id:int}`).
    public let name: String
    /// nil: the text does not convert. A thrown error (a failing script check) ends the whole match.
    public let convert: (String) throws -> Value?

    /// A type named `name` whose `convert` turns a segment into a value, or nil when the segment is not of
    /// the type.
    public init(name: String, convert: @escaping (String) throws -> Value?) {
        self.name = name
        self.convert = convert
    }

    /// The built-in types: string, int, number, bool, id and path.
    public static var builtins: [ParamType] { [
        ParamType(name: "string") { $0.isEmpty ? nil : .string($0) },
        ParamType(name: "int") { parseInt($0).map(Value.int) },
        ParamType(name: "number") { parseNumber($0).map(Value.double) },
        ParamType(name: "bool") { parseBool($0).map(Value.bool) },
        // An empty token would make URLs whose empty segment reading drops, so they never match back.
        ParamType(name: "id") { $0.isEmpty ? nil : (try? ObjectID.decode($0)).map(Value.string) },
        ParamType(name: "path") { $0.isEmpty ? nil : .string($0) },
    ] }

    /// Optional `-`, then digits; must fit in 64 bits. No `+`, no spaces, no hex.
    public static func parseInt(_ text: String) -> Int64? {
        var digits = text.utf8[...]
        if digits.first == UInt8(ascii: "-") { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }

    /// Decimal or exponent notation, finite: `-1`, `2.5`, `.5`, `5.`, `1e-3`. Not nan, inf or hex.
    public static func parseNumber(_ text: String) -> Double? {
        var bytes = text.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let isDigit = { (b: UInt8) in b >= UInt8(ascii: "0") && b <= UInt8(ascii: "9") }
        let integerDigits = bytes.prefix(while: isDigit).count
        bytes = bytes.dropFirst(integerDigits)
        var fractionDigits = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fractionDigits = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fractionDigits)
        }
        guard integerDigits + fractionDigits > 0 else { return nil }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            let exponentDigits = bytes.prefix(while: isDigit).count
            guard exponentDigits > 0 else { return nil }
            bytes = bytes.dropFirst(exponentDigits)
        }
        guard bytes.isEmpty, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `true`, `yes` or `1` as true and `false`, `no` or `0` as false, in any case; nil for anything else.
    public static func parseBool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "1": return true
        case "false", "no", "0": return false
        default: return nil
        }
    }
}

/// Values as people read them in the terminal: Lua literal syntax, maps in their own order.
extension Value: CustomStringConvertible {
    /// The value as Lua-like text, for messages and logs.
    public var description: String {
        switch self {
        case .null: return "nil"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .double(let d): return d.description
        case .string(let s): return Value.quote(s)
        case .array(let list): return "{" + list.map(\.description).joined(separator: ", ") + "}"
        case .map(let map):
            guard !map.isEmpty else { return "{}" }
            return "{ " + map.map { Value.keyText($0.key) + " = " + $0.value.description }.joined(separator: ", ") + " }"
        case .handle(let h): return h.description
        }
    }

    /// `text` as a Lua string literal: quotes, backslashes and control characters escaped (a
    /// control character as three digits, so a digit after it is not read as part of the escape).
    package static func quote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let digits = String(scalar.value)
                out += "\\" + String(repeating: "0", count: 3 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func keyText(_ key: String) -> String {
        let isName = key.first.map { $0 == "_" || ($0.isASCII && $0.isLetter) } ?? false
            && key.allSatisfy { $0 == "_" || ($0.isASCII && ($0.isLetter || $0.isNumber)) }
        return isName ? key : "[" + quote(key) + "]"
    }
}

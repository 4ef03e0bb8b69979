/// Why a context call was refused. Nothing changes when one is thrown.
public enum ContextError: Error, Equatable, CustomStringConvertible {
    case invalidKey(String)
    case noContextNamed(String)
    case unknownField(String, context: String)
    case wrongType(field: String, expected: ContextFieldType, got: String)

    public var description: String {
        switch self {
        case .invalidKey(let what): return "a context key must be a non-empty string, got \(what)"
        case .noContextNamed(let name): return "no context named '\(name)' in this chain"
        case .unknownField(let field, let context): return "\(context) has no field '\(field)'"
        case .wrongType(let field, let expected, let got): return "field '\(field)' is \(expected.rawValue), got \(got)"
        }
    }
}

/// Why a context call was refused. Nothing changes when one is thrown.
public enum ContextError: Error, Equatable, CustomStringConvertible {
    /// A key that is not a field name.
    case invalidKey(String)
    /// No context of the chain has this name.
    case noContextNamed(String)
    /// The context declares no such field.
    case unknownField(String, context: String)
    /// A value of the wrong type for a typed field.
    case wrongType(field: String, expected: ContextFieldType, got: String)

    /// What went wrong, naming the field or context.
    public var description: String {
        switch self {
        case .invalidKey(let what): return "a context key must be a non-empty string, got \(what)"
        case .noContextNamed(let name): return "no context named '\(name)' in this chain"
        case .unknownField(let field, let context): return "\(context) has no field '\(field)'"
        case .wrongType(let field, let expected, let got): return "field '\(field)' is \(expected.rawValue), got \(got)"
        }
    }
}

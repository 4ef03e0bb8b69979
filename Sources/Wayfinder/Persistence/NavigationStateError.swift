/// Why a saved navigation state cannot be used.
public enum NavigationStateError: Error, Equatable, CustomStringConvertible {
    /// The document is not a Wayfinder navigation state (its `format` is missing or another).
    case notAState(String?)
    /// The document's version is newer than this library reads.
    case unknownVersion(Int)
    /// The parts do not fit together.
    case invalid(String)
    /// A member is missing or not of its kind; `path` names it (`root.entries[2].url`).
    case malformed(path: String, reason: String)

    /// What is wrong with the document.
    public var description: String {
        switch self {
        case .notAState(let format): return "not a Wayfinder navigation state (format \(format.map { "'\($0)'" } ?? "missing"))"
        case .unknownVersion(let version):
            return "unknown state version \(version) (this Wayfinder reads version \(NavigationState.version))"
        case .invalid(let reason): return "inconsistent state: \(reason)"
        case .malformed(let path, let reason): return "\(path): \(reason)"
        }
    }
}

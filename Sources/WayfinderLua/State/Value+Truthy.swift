import Wayfinder

extension Value {
    /// As Lua tests a condition: only nil and false are false.
    var isTruthy: Bool {
        switch self {
        case .null, .bool(false): return false
        default: return true
        }
    }
}

import Wayfinder

/// How bindings answer bad input that is the caller's data, not the caller's code: `value` on
/// success, `nil, reason` when `body` throws an `E`. Other errors (a script's own, from a nested
/// call) still propagate and are raised.
func valueOrReason<E: Error & CustomStringConvertible>(_ type: E.Type, _ body: () throws -> Value) throws -> [Value] {
    do {
        return [try body()]
    } catch let error as E {
        return [.null, .string(error.description)]
    }
}

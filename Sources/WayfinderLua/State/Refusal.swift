import Foundation

/// A binding's answer `nil, reason`: the caller's data did not do (a URL that is not UTF-8, an
/// unknown mode, a navigation with nothing to do), which a script checks for, unlike a mistake in
/// its code (an argument of the wrong type), which is raised at its line. A binding throws it
/// inside ``LuaCall/run(_:_:)``, the one place that writes `nil, reason`.
package struct Refusal: Error, CustomStringConvertible, Equatable {
    /// Why the call was refused.
    package let reason: String

    /// A refusal saying `reason`.
    package init(_ reason: String) {
        self.reason = reason
    }

    /// The reason.
    package var description: String { reason }

    /// Runs `body`; an error it throws of one of `kinds` (the core's errors about the caller's
    /// data, such as `PatternError`) is a refusal with that error's description. Any other error
    /// (a script's own, from a nested call) is raised.
    @discardableResult
    package static func refusing<T>(_ kinds: any Error.Type..., body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            let kind = ObjectIdentifier(type(of: error))
            if kinds.contains(where: { ObjectIdentifier($0) == kind }) { throw Refusal(String(describing: error)) }
            throw error
        }
    }

    /// Runs `body`, a Swift function answering a script (a lent module's, a native screen's
    /// factory): any error it throws is a refusal whose reason is `explaining` the error's
    /// description (``describing(_:)``), except the state's memory limit and time budget, which
    /// stop the script as they always do.
    package static func refusingAllButLimits<T>(explaining: (String) -> String = { $0 }, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ScriptError where error.kind == .memory || error.kind == .timeout {
            throw error
        } catch {
            throw Refusal(explaining(describing(error)))
        }
    }

    /// An error as a reason: a `LocalizedError`'s `errorDescription` when it gives one, else its
    /// description.
    package static func describing(_ error: any Error) -> String {
        (error as? LocalizedError)?.errorDescription ?? String(describing: error)
    }
}

/// Why an open failed. A failed open changes nothing in the tree.
public enum NavigationError: Error, Equatable, CustomStringConvertible {
    /// The URL could not be read.
    case malformedURL(String, reason: String)
    /// No route matches the URL.
    case noRoute(String, reason: String)
    /// A delegate or guard refused the open.
    case vetoed(String)
    /// Redirects went round in a loop, or past the limit: the URLs in the order they were opened.
    case redirectLoop([String])
    /// Parents name each other in a cycle: the URLs of the cycle.
    case parentCycle([String])
    /// Opening `url` would open more parents beneath it than `limit`, one beneath the other.
    case parentChainTooLong(String, limit: Int)
    /// The URL is external (no route uses its scheme) and nothing takes external URLs.
    case noExternalHandler(String)
    /// The open's target could not make its controller: `reason` says why, and `cause` is the
    /// error its code threw, when one did (a script's `ScriptError`, with its kind, file, line and
    /// traceback).
    case controllerFailed(String, reason: String, cause: Cause? = nil)
    /// The parent named for a URL is an action, which opens no screen to stand beneath.
    case parentIsAction(String, of: String)
    /// A link from outside the app to a route not marked `external`, or to no screen at all.
    case notExternal(String, reason: String)
    /// A guard stopped the open and named nothing to open instead; the open is kept pending.
    case waiting(String, guardedBy: String)
    /// The open's presentation cannot be carried out in this tree.
    case presentation(String, Presentation, reason: String)
    /// A constructor, delegate hook, guard, appear/disappear or observer tried to navigate while
    /// the tree was changing or its change was being told.
    case busy(String, during: String)

    /// What went wrong, naming the URL.
    public var description: String {
        switch self {
        case .malformedURL(let url, let reason): return "cannot open '\(url)': \(reason)"
        case .noRoute(let url, let reason): return "cannot open '\(url)': \(reason)"
        case .vetoed(let url): return "opening '\(url)' was vetoed by the delegate"
        case .redirectLoop(let urls): return "redirect loop cut after \(urls.count - 1) hops: " + urls.joined(separator: " -> ")
        case .parentCycle(let urls): return "parent cycle: " + urls.joined(separator: " -> ")
        case .parentChainTooLong(let url, let limit):
            return "cannot open '\(url)': its parents, each the parent of the next, are more than \(limit) screens deep"
        case .noExternalHandler(let url): return "'\(url)' is external and no open_external handler is set"
        case .controllerFailed(let url, let reason, _): return "cannot open '\(url)': \(reason)"
        case .parentIsAction(let parent, let url): return "parent '\(parent)' of '\(url)' is an action (mode none), not a screen"
        case .notExternal(let url, let reason): return "cannot open '\(url)' from outside the app: \(reason)"
        case .waiting(let url, let guarded):
            let whose = guarded == url ? "its guard" : "the guard of '\(guarded)'"
            return "'\(url)' waits: \(whose) stopped it; it is kept pending and opens once the guard lets it through"
        case .presentation(let url, let presentation, let reason): return "cannot open '\(url)' with presentation \(presentation.rawValue): \(reason)"
        case .busy(let operation, let during):
            return "cannot \(operation) while the navigator is busy with \(during) (constructors, delegate hooks, guards, appear/disappear and observers of the navigator may not navigate; a mode \"none\" route may)"
        }
    }
}

extension NavigationError {
    /// The error a controller's code threw, kept whole beside the navigation error it caused. Two
    /// causes are equal when they are errors of the same type saying the same.
    public struct Cause: Equatable, Sendable {
        /// The error as it was thrown.
        public let error: any Error

        /// Wraps `error`.
        public init(_ error: any Error) {
            self.error = error
        }

        /// Whether both wrap errors with the same description.
        public static func == (lhs: Cause, rhs: Cause) -> Bool {
            type(of: lhs.error) == type(of: rhs.error) && String(describing: lhs.error) == String(describing: rhs.error)
        }
    }

    /// The error a controller's code threw, when this is a `controllerFailed` with one.
    public var cause: (any Error)? {
        if case .controllerFailed(_, _, let cause?) = self { return cause.error }
        return nil
    }
}

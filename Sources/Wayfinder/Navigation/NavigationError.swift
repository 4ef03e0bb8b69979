/// Why an open failed. A failed open changes nothing in the tree.
public enum NavigationError: Error, Equatable, CustomStringConvertible {
    case malformedURL(String, reason: String)
    case noRoute(String, reason: String)
    case vetoed(String)
    case redirectLoop([String])
    case parentCycle([String])
    case noExternalHandler(String)
    case controllerFailed(String, reason: String)
    case parentIsAction(String, of: String)
    /// A constructor, delegate hook, appear/disappear or observer tried to navigate while the tree
    /// was changing or its change was being told.
    case busy(String, during: String)

    public var description: String {
        switch self {
        case .malformedURL(let url, let reason): return "cannot open '\(url)': \(reason)"
        case .noRoute(let url, let reason): return "cannot open '\(url)': \(reason)"
        case .vetoed(let url): return "opening '\(url)' was vetoed by the delegate"
        case .redirectLoop(let urls): return "redirect loop cut after 8 hops: " + urls.joined(separator: " -> ")
        case .parentCycle(let urls): return "parent cycle: " + urls.joined(separator: " -> ")
        case .noExternalHandler(let url): return "'\(url)' is external and no open_external handler is set"
        case .controllerFailed(let url, let reason): return "cannot open '\(url)': \(reason)"
        case .parentIsAction(let parent, let url): return "parent '\(parent)' of '\(url)' is an action (mode none), not a screen"
        case .busy(let operation, let during):
            return "cannot \(operation) while the navigator is busy with \(during) (constructors, delegate hooks, appear/disappear and observers of the navigator may not navigate; a mode \"none\" route may)"
        }
    }
}

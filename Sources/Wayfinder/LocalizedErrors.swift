import Foundation

// Every public error gives its message where Foundation and UI frameworks look for it
// (`localizedDescription`, an alert's text): the message its `description` says. Each keeps its
// structure (the URL, the offset, the path) in its own members.

extension CodecError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension URLReadError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension NavigationError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension ContextError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension ContextChain.ObserverFailure: LocalizedError, CustomStringConvertible {
    /// The key and the observer's error.
    public var description: String { "observer of '\(key)': \((error as? LocalizedError)?.errorDescription ?? String(describing: error))" }
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension JSON.DecodingError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension JSON.EncodingError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension URLGenerationError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension NavigationStateError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension StateStoreError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension PatternError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

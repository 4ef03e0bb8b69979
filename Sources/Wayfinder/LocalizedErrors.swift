import Foundation

// Every public error gives its message where Foundation and UI frameworks look for it
// (`localizedDescription`, an alert's text): the message its `description` says. Each keeps its
// structure (the URL, the offset, the path) in its own members.

extension CodecError: LocalizedError {
    public var errorDescription: String? { description }
}

extension URLReadError: LocalizedError {
    public var errorDescription: String? { description }
}

extension NavigationError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ContextError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ContextChain.ObserverFailure: LocalizedError, CustomStringConvertible {
    public var description: String { "observer of '\(key)': \((error as? LocalizedError)?.errorDescription ?? String(describing: error))" }
    public var errorDescription: String? { description }
}

extension JSON.DecodingError: LocalizedError {
    public var errorDescription: String? { description }
}

extension JSON.EncodingError: LocalizedError {
    public var errorDescription: String? { description }
}

extension URLGenerationError: LocalizedError {
    public var errorDescription: String? { description }
}

extension NavigationStateError: LocalizedError {
    public var errorDescription: String? { description }
}

extension StateStoreError: LocalizedError {
    public var errorDescription: String? { description }
}

extension PatternError: LocalizedError {
    public var errorDescription: String? { description }
}

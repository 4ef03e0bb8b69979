import Foundation

// Every public error gives its message where Foundation and UI frameworks look for it
// (`localizedDescription`, an alert's text): the message its `description` says. Each keeps its
// structure (kind, file, line, traceback) in its own members.

extension ScriptError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension Refusal: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension AppLoadError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension ReloadError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension HostThreadError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension PersistenceError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

extension MigrationError: LocalizedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
}

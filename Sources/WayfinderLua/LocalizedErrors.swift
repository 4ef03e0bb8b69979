import Foundation

// Every public error gives its message where Foundation and UI frameworks look for it
// (`localizedDescription`, an alert's text): the message its `description` says. Each keeps its
// structure (kind, file, line, traceback) in its own members.

extension ScriptError: LocalizedError {
    public var errorDescription: String? { description }
}

extension Refusal: LocalizedError {
    public var errorDescription: String? { description }
}

extension AppLoadError: LocalizedError {
    public var errorDescription: String? { description }
}

extension ReloadError: LocalizedError {
    public var errorDescription: String? { description }
}

extension HostThreadError: LocalizedError {
    public var errorDescription: String? { description }
}

extension PersistenceError: LocalizedError {
    public var errorDescription: String? { description }
}

extension MigrationError: LocalizedError {
    public var errorDescription: String? { description }
}

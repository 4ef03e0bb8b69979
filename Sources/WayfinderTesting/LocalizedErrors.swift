import Foundation

// The test kit's errors give their message where Foundation looks for it (`localizedDescription`),
// as the library's do (WayfinderLua/LocalizedErrors.swift).

extension SpecRunnerError: LocalizedError {
    package var errorDescription: String? { description }
}

extension SnapshotError: LocalizedError {
    package var errorDescription: String? { description }
}

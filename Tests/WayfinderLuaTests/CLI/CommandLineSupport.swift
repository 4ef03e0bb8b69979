import Foundation

/// Runs the built `wayfinder` executable, as a user would.
enum WayfinderCLI {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
        var lines: [String] { stdout.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
    }

    /// The executable sits beside the test bundle in the build directory.
    static let executable: URL = {
        // A binary that exits early closes its end of the pipes: writing to them must fail that
        // one test (EPIPE), not kill the whole test process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = bundle.deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("wayfinder")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            directory = directory.deletingLastPathComponent()
        }
        return bundle.deletingLastPathComponent().appendingPathComponent("wayfinder")
    }()

    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs the executable with `input` as its standard input (none when nil). XDG_STATE_HOME is
    /// `stateHome`, by default a new empty directory, so no run sees another's saved state unless
    /// the test says so. `directory` is the working directory (default: the test's own);
    /// `environment` adds to or replaces the inherited variables, and `unsetting` removes some.
    /// `binary` runs another copy of the executable.
    static func run(_ arguments: [String], input: String? = nil, stateHome: String? = nil, directory: String? = nil,
                    environment: [String: String] = [:], unsetting: [String] = [], binary: URL? = nil) throws -> Result {
        let process = Process()
        process.executableURL = binary ?? executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let temporaryHome = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-state-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: temporaryHome) }
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_STATE_HOME": stateHome ?? temporaryHome]) { _, new in new }
            .merging(environment) { _, new in new }.filter { !unsetting.contains($0.key) }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : stdin
        try process.run()
        if let input {
            stdin.fileHandleForWriting.write(Data(input.utf8))
            try stdin.fileHandleForWriting.close()
        }
        // Read both pipes before waiting, so a full pipe cannot stall the child.
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

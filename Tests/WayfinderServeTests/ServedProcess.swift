import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `wayfinder serve` in a process of its own, started through `sh` with its soft limit on open
/// files lowered to `descriptors`, so a test can bring it to that limit without touching the
/// test process's own. Stopped (SIGTERM) by `stop()`.
final class ServedProcess {
    let process = Process()
    private let output = Pipe()
    private let collected = Collected()

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// The executable sits beside the test bundle in the build directory.
    static let executable: URL = {
        signal(SIGPIPE, SIG_IGN)
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("wayfinder")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue { return candidate }
            directory = directory.deletingLastPathComponent()
        }
        return URL(fileURLWithPath: "wayfinder")
    }()

    init(app: String, descriptors: Int, binary: URL = ServedProcess.executable) throws {
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "ulimit -n \(descriptors) && exec \"$0\" serve \"$1\" --no-state --no-watch", binary.path, app]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        let collected = collected
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
    }

    /// What it printed so far (standard output and error together).
    var text: String { collected.text }

    /// The port and token of the address it printed; waits at most 60 seconds for it.
    func address() throws -> ServeServerTests.Address {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("wayfinder serve: http://") }),
               let url = URLComponents(string: String(line.dropFirst("wayfinder serve: ".count))),
               let port = url.port, let token = url.queryItems?.first(where: { $0.name == "token" })?.value {
                return ServeServerTests.Address(port: port, token: token)
            }
            guard process.isRunning else { break }
            usleep(20_000)
        }
        throw RawClient.Failure(description: "no address printed: \(text)")
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
    }
}

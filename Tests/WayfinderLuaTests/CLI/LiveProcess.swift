import Foundation

/// A running `wayfinder`, written to while it runs; what it prints (standard output and error
/// together) is collected as it comes.
final class LiveProcess {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let collected = Collected()

    private final class Collected: @unchecked Sendable {
        private let lock = NSLock()
        private var data = Data()
        func append(_ more: Data) { lock.withLock { data.append(more) } }
        var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
    }

    /// Starts the built binary with `arguments`. With `terminal`, it runs under util-linux's
    /// `script`, so its standard input, output and error are a pseudo-terminal (`script` copies
    /// what is typed to that terminal and what the program writes back).
    /// `environment` is added to the test process's own.
    init(_ arguments: [String], terminal: Bool = false, environment: [String: String] = [:]) throws {
        if terminal {
            let command = ([WayfinderCLI.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qfec", command.joined(separator: " "), "/dev/null"]
        } else {
            process.executableURL = WayfinderCLI.executable
            process.arguments = arguments
        }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        let collected = collected
        output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
        try process.run()
    }

    var text: String { collected.text }

    /// Writes `keys` as they are (a terminal's keys, escape sequences included).
    func type(_ keys: String) {
        input.fileHandleForWriting.write(Data(keys.utf8))
    }

    /// Writes `line` and a newline: one command.
    func send(_ line: String) {
        type(line + "\n")
    }

    /// Waits until the output holds `needle` `count` times; false after 10 seconds.
    func waitFor(_ needle: String, count: Int = 1) -> Bool {
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if text.components(separatedBy: needle).count - 1 >= count { return true }
            usleep(20_000)
        }
        return false
    }

    /// Sends `q`, closes standard input and waits: the exit status.
    func finish() -> Int32 {
        send("q")
        try? input.fileHandleForWriting.close()
        return exitStatus()
    }

    /// Waits for the process to end on its own: the exit status.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        output.fileHandleForReading.readabilityHandler = nil
        return process.terminationStatus
    }
}

import CallgrindRegion
import Foundation

/// Instruction counts, which do not depend on what else the machine is doing: the bench runs one
/// of its own workloads (`InstructionWorkloads`) in a child process under
/// `valgrind --tool=callgrind --instr-atstart=no`, so the set-up runs uninstrumented, and each
/// counted region ends in a dump of its own that names it and its number of operations.
///
/// valgrind 3.19 cannot read the toolchain's default DWARF 5, which is why scripts/bench builds
/// with `-Xswiftc -dwarf-version=4 -Xcc -gdwarf-4` (debug information only: the code is the same).
enum Callgrind {
    /// One counted region: its name and instructions per operation.
    struct Count {
        let name: String
        let operations: Int
        let instructions: Int
        /// The callgrind file that holds the region's profile.
        var file = ""

        var perOperation: Double { Double(instructions) / Double(max(operations, 1)) }
    }

    /// Why no counts can be taken on this machine, or nil when they can.
    static var unavailableReason: String? {
        guard callgrind_region_available() != 0 else {
            return "the bench was built without valgrind's headers (apt-get install valgrind, then rebuild)"
        }
        guard executablePath("valgrind") != nil else { return "valgrind is not installed" }
        return nil
    }

    /// Runs `workload` under callgrind and returns its regions. With `keepIn`, the callgrind
    /// files stay in that directory for `callgrind_annotate`; otherwise they are removed.
    static func count(_ workload: String, keepIn directory: URL? = nil) throws -> [Count] {
        if let reason = unavailableReason { throw BenchError("no instruction counts: \(reason)") }
        let outputDirectory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("wayfinder-bench-callgrind-\(getpid())-\(workload)")
        try? FileManager.default.removeItem(at: outputDirectory)
        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        defer { if directory == nil { try? FileManager.default.removeItem(at: outputDirectory) } }

        let result = try Subprocess.run(
            executablePath("valgrind")!,
            ["--tool=callgrind", "--instr-atstart=no",
             "--callgrind-out-file=\(outputDirectory.path)/callgrind.out.\(workload)",
             Subprocess.selfPath, "--count", workload],
            // Swift's hashing is seeded per process; a fixed seed makes dictionary probes, and so
            // the counts, the same from run to run.
            environment: ["SWIFT_DETERMINISTIC_HASHING": "1"])
        guard result.status == 0 else {
            throw BenchError("callgrind run of \(workload) failed (\(result.status)):\n\(result.standardError.suffix(2_000))")
        }
        var counts = [Count]()
        for file in try FileManager.default.contentsOfDirectory(atPath: outputDirectory.path)
            .sorted(by: { $0.count != $1.count ? $0.count < $1.count : $0 < $1 }) {  // dump 2 before dump 10
            let text = try String(contentsOf: outputDirectory.appendingPathComponent(file), encoding: .utf8)
            if var count = region(in: text) {
                count.file = outputDirectory.appendingPathComponent(file).path
                counts.append(count)
            }
        }
        guard !counts.isEmpty else { throw BenchError("callgrind run of \(workload) left no counted region") }
        return counts
    }

    /// A dump's region, from its `desc: Trigger: Client Request: NAME:OPERATIONS` and `totals:`
    /// lines; nil for the dump callgrind writes at exit.
    private static func region(in dump: String) -> Count? {
        var name: String?
        var operations = 0
        var total: Int?
        for line in dump.split(separator: "\n") {
            if line.hasPrefix("desc: Trigger: Client Request: ") {
                let label = line.dropFirst("desc: Trigger: Client Request: ".count)
                guard let colon = label.lastIndex(of: ":"), let count = Int(label[label.index(after: colon)...]) else { return nil }
                name = String(label[..<colon])
                operations = count
            } else if line.hasPrefix("totals: ") {
                total = Int(line.dropFirst("totals: ".count).split(separator: " ").first ?? "")
            }
        }
        guard let name, let total else { return nil }
        return Count(name: name, operations: operations, instructions: total)
    }

    /// Counts what `body` executes as the region `name` of `operations` operations (a no-op
    /// outside valgrind).
    @inline(never)
    static func region<T>(_ name: String, operations: Int, _ body: () throws -> T) rethrows -> T {
        callgrind_region_start()
        let result = try body()
        callgrind_region_stop("\(name):\(operations)")
        return result
    }

    static func executablePath(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

/// A child process of the bench, its output gathered through files (so neither pipe can fill and
/// stall it).
enum Subprocess {
    struct Result {
        let status: Int32
        let standardOutput: String
        let standardError: String
    }

    /// This benchmark's own executable.
    static var selfPath: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-bench-child-\(getpid())-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout"), errURL = directory.appendingPathComponent("stderr")
        guard FileManager.default.createFile(atPath: outURL.path, contents: nil),
              FileManager.default.createFile(atPath: errURL.path, contents: nil)
        else { throw BenchError("cannot create the child's output files in \(directory.path)") }
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return Result(status: process.terminationStatus,
                      standardOutput: (try? String(contentsOf: outURL, encoding: .utf8)) ?? "",
                      standardError: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
    }
}

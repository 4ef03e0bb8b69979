import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `wayfinder` executable and measures that one child: its peak resident memory
/// and the CPU time it used, from `wait4`'s accounting of it alone (so tests running beside it,
/// and the machine's load, change neither).
struct MeasuredRun {
    let status: Int32
    let stdout: String
    let stderr: String
    /// Peak resident set size, in bytes.
    let peakBytes: Int
    /// User and system CPU time, in seconds.
    let cpuSeconds: Double

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs the executable with `arguments` and `input` on its standard input; its output goes to
    /// files (a pipe could stall a child that writes much), read once it has ended.
    static func run(_ arguments: [String], input: String = "") throws -> MeasuredRun {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-measured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = ["in", "out", "err"].map { directory.appendingPathComponent($0).path }
        try Data(input.utf8).write(to: URL(fileURLWithPath: paths[0]))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, paths[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, paths[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        let argv = [WayfinderCLI.executable.path] + arguments
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, argv[0], &actions, nil, cArguments, cEnvironment)
        guard spawned == 0 else { throw Failure(description: "cannot start \(argv[0]): \(String(cString: strerror(spawned)))") }

        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) == -1 {
            guard errno == EINTR else { throw Failure(description: "wait4: \(String(cString: strerror(errno)))") }
        }
        let read = { (path: String) in String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self) }
        let seconds = { (time: timeval) in Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        // Linux counts ru_maxrss in KiB.
        let exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        return MeasuredRun(status: exitStatus, stdout: read(paths[1]), stderr: read(paths[2]), peakBytes: Int(usage.ru_maxrss) * 1024,
                           cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime))
    }
}

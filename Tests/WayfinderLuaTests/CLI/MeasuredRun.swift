import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Runs the built `wayfinder` executable and measures that one process: its peak resident memory
/// and the CPU time it used, from `wait4`'s accounting of it alone (so tests running beside it,
/// and the machine's load, change neither). A small Python process starts it and waits for it:
/// Linux counts into a process's peak the memory of the process whose image it replaced, and
/// this test process is large, so it cannot start the measured one itself.
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
        let paths = ["in", "out", "err", "usage"].map { directory.appendingPathComponent($0).path }
        try Data(input.utf8).write(to: URL(fileURLWithPath: paths[0]))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, paths[0], O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, paths[1], O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, paths[2], O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var environment = ProcessInfo.processInfo.environment
        environment["XDG_STATE_HOME"] = directory.appendingPathComponent("state").path
        let argv = ["/usr/bin/env", "python3", "-c", Self.waiter, paths[3], WayfinderCLI.executable.path] + arguments
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
        while waitpid(pid, &status, 0) == -1 {
            guard errno == EINTR else { throw Failure(description: "waitpid: \(String(cString: strerror(errno)))") }
        }
        let read = { (path: String) in String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), as: UTF8.self) }
        let usage = read(paths[3]).split(separator: " ").compactMap { Double($0) }
        guard usage.count == 4 else { throw Failure(description: "no usage measured: \(read(paths[2]))") }
        // Linux counts ru_maxrss in KiB.
        return MeasuredRun(status: Int32(usage[0]), stdout: read(paths[1]), stderr: read(paths[2]), peakBytes: Int(usage[1]) * 1024,
                           cpuSeconds: usage[2] + usage[3])
    }

    /// Forks, runs the command (argv[2...]) and writes its exit status (128 + the signal when a
    /// signal ended it), peak resident KiB and user and system CPU seconds to argv[1].
    static let waiter = """
        import os, sys
        pid = os.fork()
        if pid == 0:
            os.execv(sys.argv[2], sys.argv[2:])
        _, status, usage = os.wait4(pid, 0)
        code = os.waitstatus_to_exitcode(status)
        with open(sys.argv[1], "w") as out:
            out.write(f"{code if code >= 0 else 128 - code} {usage.ru_maxrss} {usage.ru_utime} {usage.ru_stime}")
        """
}

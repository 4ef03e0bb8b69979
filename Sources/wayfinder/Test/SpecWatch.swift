import Foundation
#if canImport(Glibc)
import Glibc
#endif
import WayfinderLua
import WayfinderTesting

/// `wayfinder test --watch`: runs the specs, then waits for saves and reruns the spec files that
/// changed and those whose apps (the ones they launched with `wf.testing`) changed, with a line
/// saying what changed and what ran. It watches with the same `DirectoryWatcher` as `run --watch`
/// (inotify, else polling) the spec directories and the apps' directories; a change it cannot
/// place (a helper module beside the specs) reruns every spec file. A line on standard input
/// reruns every spec file; `q` or the end of input ends it.
struct SpecWatch {
    var runner: SpecRunner
    let roots: [String]
    let isSpecFile: (String) -> Bool
    let polling: Bool
    /// The apps each spec file launched in its last run (their directories or files, real paths).
    private var appsOf: [String: [String]] = [:]
    private var watchers: [DirectoryWatcher] = []

    init(runner: SpecRunner, roots: [String], isSpecFile: @escaping (String) -> Bool, polling: Bool) {
        self.runner = runner
        self.roots = roots
        self.isSpecFile = isSpecFile
        self.polling = polling
    }

    static func real(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    mutating func run() -> Never {
        var files = discover()
        round(files, because: nil)
        while true {
            let changed = waitForChanges()
            let now = discover()
            if changed.isEmpty {
                files = now
                round(now, because: nil)
                continue
            }
            let known = Set(files.map(Self.real))
            // A spec file's own change reruns that file alone, even where the specs lie inside the
            // app they launch (`wayfinder new`'s spec/): it is not a change to the app.
            let appChanges = changed.subtracting(known).subtracting(now.map(Self.real))
            let chosen = now.filter { file in
                let path = Self.real(file)
                if !known.contains(path) || changed.contains(path) { return true }
                return (appsOf[path] ?? []).contains { app in appChanges.contains { $0 == app || $0.hasPrefix(app + "/") } }
            }
            let placed = changed.allSatisfy { path in
                now.contains { Self.real($0) == path } || appsOf.values.contains { $0.contains { path == $0 || path.hasPrefix($0 + "/") } }
            }
            files = now
            round(placed ? chosen : now, because: changed)
        }
    }

    private func discover() -> [String] {
        (try? SpecRunner.discover(roots, isSpecFile: isSpecFile)) ?? []
    }

    /// Runs `files`, remembering the apps each launched, prints the failures and one line, and
    /// watches the directories that now matter.
    private mutating func round(_ files: [String], because changed: Set<String>?) {
        var report = TestReport(style: .quiet, printsSummary: false)
        for file in files {
            let coverage = RouteCoverage()
            runner.coverage = coverage
            runner.run(file) { report.add($0) }
            appsOf[Self.real(file)] = coverage.apps.map(\.path)
        }
        runner.coverage = nil
        for result in report.results where result.isFailure {
            Terminal.print("\(result.status == .failed ? "FAIL" : "ERROR") \(result.file): \(result.name)")
            for line in (result.message ?? "").split(separator: "\n") { Terminal.print("  " + line) }
        }
        let cause = changed.map { paths in
            let names = paths.sorted().map { URL(fileURLWithPath: $0).lastPathComponent }
            return "\(names.joined(separator: ", ")) changed: "
        } ?? ""
        Terminal.print("watch: \(cause)ran \(files.count) spec file\(files.count == 1 ? "" : "s"): \(report.summary)")
        rewatch()
    }

    /// Watches the spec roots' directories and the apps' directories, each once.
    private mutating func rewatch() {
        var directories = roots.map { root -> String in
            var isDirectory: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory)
            return Self.real(isDirectory.boolValue ? root : URL(fileURLWithPath: root).deletingLastPathComponent().path)
        }
        for app in appsOf.values.joined() {
            directories.append(app.hasSuffix(".lua") ? URL(fileURLWithPath: app).deletingLastPathComponent().path : app)
        }
        directories = Array(Set(directories)).sorted()
        let outermost = directories.filter { directory in !directories.contains { directory.hasPrefix($0 + "/") } }
        guard outermost != watchers.map(\.directory) else { return }
        watchers = outermost.map { DirectoryWatcher(directory: $0, polling: polling) }
        let how = watchers.first?.mechanism.rawValue ?? "polling"
        Terminal.print("watch: watching \(outermost.joined(separator: ", ")) for changes (\(how))")
    }

    /// Blocks until some watched Lua file changed (their real paths), or a line on standard
    /// input asks for every spec again (an empty set). `q` or the end of input ends the watch.
    private func waitForChanges() -> Set<String> {
        var pending = ""
        while true {
            var changed = Set<String>()
            for watcher in watchers {
                for path in watcher.changes() { changed.insert(watcher.directory + "/" + path) }
            }
            if !changed.isEmpty { return changed }
            var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
            descriptors += watchers.compactMap { $0.fileDescriptor }.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let timeout = watchers.map(\.pollTimeout).filter { $0 >= 0 }.min() ?? -1
            _ = poll(&descriptors, nfds_t(descriptors.count), timeout)
            guard descriptors[0].revents != 0 else { continue }
            var buffer = [UInt8](repeating: 0, count: 256)
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count <= 0 { Foundation.exit(0) }
            pending += String(decoding: buffer[..<count], as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline].trimmingCharacters(in: .whitespaces)
                pending = String(pending[pending.index(after: newline)...])
                if line == "q" { Foundation.exit(0) }
                return []
            }
        }
    }
}

import Foundation
import WayfinderLua

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a spec file may reach through `wf.testing`. It reads apps only under its roots (the
/// spec file's directory, the nearest directory above it holding an `app.lua`, the paths given on
/// the command line, and the current directory when the spec lies inside it) or in copies it
/// made; it writes, and keeps state files, only inside those copies (fresh temporary directories,
/// removed when the spec file's run ends). So a spec cannot change the app it tests in place, nor
/// read or write anything else on the machine.
final class Workspace {
    /// The most one copy may hold, in bytes and in entries (files and directories).
    static let copyByteLimit = 64 << 20
    static let copyEntryLimit = 10_000
    /// The most the copies of one spec file may hold together, as their files' sizes (a sparse
    /// file counts as its size), files written into them included.
    let copiesByteLimit: Int

    /// Where writes may go (the copied directory, or for a single-file app the temporary
    /// directory holding it), and the temporary directory to remove; real paths.
    private var copies: [(root: String, temporary: String)] = []
    /// Each copy's path and the real path of the app it was copied from.
    private var copiedFrom: [(copy: String, source: String)] = []
    /// Real paths of the directories whose apps may be launched and copied.
    private let roots: [String]
    /// The most apps a spec file may have running at once: each runs in its own Lua state within
    /// the spec's limits, so this bounds what a spec's apps may hold together.
    static let runningAppLimit = 8
    /// The apps this spec launched, held weakly: those still running count.
    private var launched: [() -> Bool] = []

    /// `specFile` is the spec being run; `roots` the paths given on the command line.
    /// Where the apps launched from this spec file report the routes they open.
    var coverage: RouteCoverage?
    /// What runs in place of each app launched from this spec file (``SpecRunner/appSource``).
    var appSource: ((AppSource) -> AppSource)?
    /// The spec file's directory, as the path it was run by names it (`mail/spec`): what
    /// `wf.testing.here` resolves against, so a spec finds its app wherever it is run from.
    let specDirectory: String
    /// The spec file, as the path it was run by names it.
    let specFile: String

    init(specFile: String, roots: [String] = [], copiesByteLimit: Int = 256 << 20) {
        self.copiesByteLimit = copiesByteLimit
        var real = [String]()
        let slash = specFile.lastIndex(of: "/")
        self.specFile = specFile
        self.specDirectory = slash.map { $0 == specFile.startIndex ? "/" : String(specFile[..<$0]) } ?? "."
        let specDirectory = URL(fileURLWithPath: specFile).deletingLastPathComponent().path
        if let directory = FileAccess.realPath(specDirectory) {
            real.append(directory)
            if let app = Self.enclosingApp(of: directory) { real.append(app) }
        }
        for root in roots {
            if let path = FileAccess.realPath(root) { real.append(path) }
        }
        if let current = FileAccess.realPath("."), let spec = FileAccess.realPath(specFile), Self.path(spec, isInside: current) {
            real.append(current)
        }
        self.roots = real
    }

    /// The nearest directory above `directory` holding an `app.lua`: the app a spec/ directory
    /// belongs to, which its specs may launch wherever `wayfinder test` runs from.
    static func enclosingApp(of directory: String) -> String? {
        var candidate = URL(fileURLWithPath: directory)
        while candidate.path != "/" {
            candidate.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("app.lua").path) { return candidate.path }
        }
        return nil
    }

    deinit {
        for copy in copies { try? FileManager.default.removeItem(atPath: copy.temporary) }
    }

    /// The app at `path` (resolved) when a spec may read it: under a root or in a copy.
    func readableApp(_ path: String, for operation: String) throws -> String {
        guard let real = FileAccess.realPath(path) else {
            throw WorkspaceError("\(operation): no such file or directory: \(path)")
        }
        guard roots.contains(where: { Self.path(real, isInside: $0) }) || copies.contains(where: { Self.path(real, isInside: $0.temporary) }) else {
            throw WorkspaceError("\(operation): \(path) is outside the spec's directory, the paths given on the command line and the copies made by wf.testing.copy_app")
        }
        return real
    }

    /// Throws when the spec already runs as many apps as it may.
    func checkRoomForAnotherApp() throws {
        launched.removeAll { !$0() }
        guard launched.count < Self.runningAppLimit else {
            throw WorkspaceError("launch: \(Self.runningAppLimit) apps are running already; close one first")
        }
    }

    /// Counts `driver` among the running apps until it closes or goes.
    func launched(_ driver: AppDriver) {
        launched.append { [weak driver] in driver?.host != nil }
    }

    /// A state file for `launch`: it must lie inside a copy this workspace made.
    func stateFile(_ path: String) throws -> String {
        try inside(path, for: "launch: state")
    }

    /// Copies the app at `path` (a directory, or a single .lua file) into a new temporary
    /// directory; the copy's path. The copy holds directories and regular files only: a
    /// symbolic link is copied as the file it names when that lies inside the app, and refused
    /// otherwise, as are FIFOs, devices and sockets. `checkBudget` runs after each entry, so the
    /// copy counts against the calling script's time budget.
    func copyApp(_ path: String, checkBudget: () throws -> Void = {}) throws -> String {
        let source = try readableApp(path, for: "copy_app")
        var isDirectory: ObjCBool = false
        _ = FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory)
        let live = liveCopyBytes()
        guard live < copiesByteLimit else {
            throw WorkspaceError("copy_app: cannot copy \(path): this spec file's copies already hold \(Self.mebibytes(live)) "
                + "of the \(Self.mebibytes(copiesByteLimit)) its copies may hold together")
        }
        let directory = try Self.makeTemporaryDirectory(prefix: "wayfinder-app")
        let name = URL(fileURLWithPath: path).standardizedFileURL.lastPathComponent
        let copy = directory + "/" + name
        var budget = CopyBudget()
        budget.limit = min(Self.copyByteLimit, copiesByteLimit - live)
        do {
            try copyEntry(source, to: copy, appRoot: isDirectory.boolValue ? source : URL(fileURLWithPath: source).deletingLastPathComponent().path,
                          shown: name, budget: &budget, checkBudget: checkBudget)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            if error is WorkspaceError || error is ScriptError { throw error }
            if error is CopyRefusal { throw WorkspaceError("copy_app: cannot copy \(path): \(error)") }
            throw WorkspaceError("copy_app: cannot copy \(path): \(error.localizedDescription)")
        }
        let temporary = FileAccess.realPath(directory) ?? directory
        let copied = temporary + "/" + name
        copies.append((isDirectory.boolValue ? copied : temporary, temporary))
        copiedFrom.append((copied, source))
        return copied
    }

    /// The app a path names, seen through copies: a copy's path gives its original's, so route
    /// coverage counts a copy's routes toward the app it was copied from.
    func original(of path: String) -> String {
        let real = FileAccess.realPath(path) ?? path
        for (copy, source) in copiedFrom {
            if real == copy { return source }
            if real.hasPrefix(copy + "/") { return source + real.dropFirst(copy.count) }
        }
        return real
    }

    /// Writes `text` to `path`, which must lie inside a copy this workspace made, in a directory
    /// that exists. The file is written beside and renamed into place, as editors save.
    func write(_ path: String, _ text: String) throws {
        let file = try inside(path, for: "write")
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw WorkspaceError("write: cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The text of the regular file at `path`, inside a copy this workspace made; a symbolic
    /// link is not followed.
    func read(_ path: String, limit: Int) throws -> String {
        let file = try inside(path, for: "read")
        do {
            return String(decoding: try FileAccess.readFile(atPath: file, limit: limit, followingLinks: false), as: UTF8.self)
        } catch {
            throw WorkspaceError("read: cannot read \(path): \(error)")
        }
    }

    /// The real path of `path` (its directory's symlinks resolved), if it lies inside a copy.
    private func inside(_ path: String, for operation: String) throws -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        guard let realParent = FileAccess.realPath(target.deletingLastPathComponent().path),
              copies.contains(where: { Self.path(realParent, isInside: $0.root) }) else {
            throw WorkspaceError("\(operation): \(path) is not inside a copy made by wf.testing.copy_app")
        }
        return realParent + "/" + target.lastPathComponent
    }

    // MARK: Copying

    private struct CopyBudget {
        var bytes = 0
        var entries = 0
        var limit = Workspace.copyByteLimit
    }

    /// "N MiB", rounded up, or "N bytes" under one MiB.
    private static func mebibytes(_ bytes: Int) -> String {
        bytes < 1 << 20 ? "\(bytes) bytes" : "\((bytes + (1 << 20) - 1) >> 20) MiB"
    }

    /// The sizes of the files in this spec file's copies as they are now.
    private func liveCopyBytes() -> Int {
        var total = 0
        for copy in copies {
            guard let walker = FileManager.default.enumerator(atPath: copy.temporary) else { continue }
            while let relative = walker.nextObject() as? String {
                var info = stat()
                if lstat(copy.temporary + "/" + relative, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG {
                    total += Int(info.st_size)
                }
            }
        }
        return total
    }

    private struct CopyRefusal: Error, CustomStringConvertible {
        let description: String
    }

    private func copyEntry(_ source: String, to destination: String, appRoot: String, shown: String,
                           budget: inout CopyBudget, checkBudget: () throws -> Void) throws {
        budget.entries += 1
        guard budget.entries <= Self.copyEntryLimit else {
            throw CopyRefusal(description: "it has more than \(Self.copyEntryLimit) files and directories")
        }
        var info = stat()
        guard lstat(source, &info) == 0 else { throw CopyRefusal(description: "\(shown): \(String(cString: strerror(errno)))") }
        var file = source
        switch info.st_mode & S_IFMT {
        case S_IFDIR:
            try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
            for child in try FileManager.default.contentsOfDirectory(atPath: source).sorted() {
                try copyEntry(source + "/" + child, to: destination + "/" + child, appRoot: appRoot, shown: shown + "/" + child,
                              budget: &budget, checkBudget: checkBudget)
            }
            try checkBudget()
            return
        case S_IFREG:
            break
        case S_IFLNK:
            guard let target = FileAccess.realPath(source), Self.path(target, isInside: appRoot), stat(target, &info) == 0,
                  (info.st_mode & S_IFMT) == S_IFREG else {
                throw CopyRefusal(description: "\(shown) is a symbolic link that does not lead to a file inside the app")
            }
            file = target
        default:
            throw CopyRefusal(description: "\(shown) is not a regular file or directory")
        }
        let remaining = budget.limit - budget.bytes
        let bytes: [UInt8]
        do {
            bytes = try FileAccess.readFile(atPath: file, limit: remaining)
        } catch {
            if case .tooLarge = error {
                if budget.limit < Self.copyByteLimit {
                    throw CopyRefusal(description: "it holds more than the \(Self.mebibytes(budget.limit)) left of the "
                        + "\(Self.mebibytes(copiesByteLimit)) this spec file's copies may hold together")
                }
                throw CopyRefusal(description: "it holds more than \(Self.copyByteLimit >> 20) MiB")
            }
            throw CopyRefusal(description: "\(shown): \(error)")
        }
        budget.bytes += bytes.count
        guard FileManager.default.createFile(atPath: destination, contents: Data(bytes)) else {
            throw CopyRefusal(description: "\(shown): cannot write the copy")
        }
        try checkBudget()
    }

    // MARK: Paths

    /// Whether the real path `path` is `root` or lies under it.
    static func path(_ path: String, isInside root: String) -> Bool {
        path == root || path.hasPrefix(root == "/" ? "/" : root + "/")
    }

    static func makeTemporaryDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/\(prefix)-\(UUID().uuidString)"
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw WorkspaceError("cannot make a temporary directory in \(FileManager.default.temporaryDirectory.path): \(error.localizedDescription)")
        }
        return path
    }
}

struct WorkspaceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

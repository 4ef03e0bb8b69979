import CLuaShim
import Foundation
import OrderedCollections
import Wayfinder
import WayfinderLua

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The files a run's spec files reach through their `io`, `lfs` and `require` (docs/testing.md,
/// "Files, fixtures and installed modules"): they read inside the project (the working
/// directory), the paths given on the command line and the run's temporary directory; they write
/// only inside that directory, made when first needed and removed when the run ends; `require`
/// also reads the installed pure-Lua modules under the library directories. Every path is judged
/// by where it really leads (symbolic links and `..` resolved), so no spelling reaches past these.
package final class SpecFiles {
    /// A file larger than this is not opened for reading, and no read goes past this offset.
    static let readLimit = FileAccess.sourceLimit
    /// One file written in the temporary directory holds at most this many bytes...
    static let fileWriteLimit = 64 << 20
    /// ...and the run writes at most this many bytes there in all.
    static let runWriteLimit = 256 << 20
    /// The run's specs hold at most this many files open at once.
    static let openLimit = 200
    /// The run makes at most this many files and directories in its temporary directory.
    static let entryLimit = 10_000
    /// A directory listed holds at most this many entries.
    static let listingLimit = 10_000

    /// Real paths specs may read: the project, then the command line's paths.
    private let readRoots: [String]
    /// The directories (absolute, `..` taken lexically) `require` may read installed modules
    /// from, the project's own excepted (its files follow the project's rule).
    let libraryRoots: [String]
    /// The `package.path` templates of the installed modules, searched after the project's.
    package let libraryPath: String
    /// Directories holding C modules (`?.so`), named in the refusal of one.
    let cModuleTemplates: [String]
    /// The project's directory as given (the working directory in a run): relative paths start there.
    let project: String
    private var temporary: String?
    private var entries = 0
    /// What every stream the run's specs open reads and writes within (SpecStreams.c).
    let budget: OpaquePointer

    /// `roots`: the paths given on the command line; `lpath`: the command line's `--lpath`
    /// templates (they may lead outside the project: the user named them).
    package init(project: String = FileManager.default.currentDirectoryPath, roots: [String] = [], lpath: String? = nil,
                environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.project = project
        var read = [String]()
        if let real = FileAccess.realPath(project) { read.append(real) }
        read += roots.map { $0.hasPrefix("/") ? $0 : project + "/" + $0 }.compactMap(FileAccess.realPath)
        readRoots = read
        let templates = Self.libraryTemplates(lpath: lpath, environment: environment)
        libraryPath = templates.joined(separator: ";")
        let projectReal = read.first
        libraryRoots = templates.compactMap(Self.directory(of:)).map { Self.lexical($0, from: project) }.filter { root in
            root != "/" && !(projectReal.map { Workspace.path(FileAccess.realPath(root) ?? root, isInside: $0) } ?? false)
        }
        let home = environment["HOME"].map { [$0 + "/.luarocks/lib/lua/5.4/?.so"] } ?? []
        cModuleTemplates = (environment["LUA_CPATH_5_4"] ?? environment["LUA_CPATH"] ?? "").split(separator: ";").map(String.init)
            + ["/usr/local/lib/lua/5.4/?.so", "/usr/lib/x86_64-linux-gnu/lua/5.4/?.so", "/usr/lib/aarch64-linux-gnu/lua/5.4/?.so",
               "/usr/lib/lua/5.4/?.so"] + home
        guard let budget = wf_spec_budget_new(Int64(Self.fileWriteLimit), Int64(Self.runWriteLimit), Int64(Self.readLimit)) else {
            fatalError("no memory for the spec files' budget")
        }
        self.budget = budget
    }

    deinit {
        removeTemporary()
        // The streams still open hold the budget too; the last to let go frees it.
        wf_spec_budget_release(budget)
    }

    /// Where installed pure-Lua modules are searched, as Lua 5.4's `package.path` on Debian
    /// and luarocks' trees: `--lpath`, then `LUA_PATH_5_4` or `LUA_PATH` (`;;` there is these
    /// defaults), then the system and user trees.
    static func libraryTemplates(lpath: String?, environment: [String: String]) -> [String] {
        var defaults = [String]()
        for tree in ["/usr/local/share/lua/5.4", "/usr/share/lua/5.4"] + (environment["HOME"].map { [$0 + "/.luarocks/share/lua/5.4"] } ?? []) {
            defaults += [tree + "/?.lua", tree + "/?/init.lua"]
        }
        var templates = (lpath ?? "").split(separator: ";").map(String.init)
        if let variable = environment["LUA_PATH_5_4"] ?? environment["LUA_PATH"] {
            templates += variable.replacingOccurrences(of: ";;", with: ";\u{1};").split(separator: ";").flatMap {
                $0 == "\u{1}" ? defaults : [String($0)]
            }
        }
        var seen = Set<String>()
        return (templates + defaults).filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    /// The directory a template searches below: the part before the component holding `?`.
    static func directory(of template: String) -> String? {
        guard let mark = template.firstIndex(of: "?") else { return nil }
        let head = template[..<mark]
        guard let slash = head.lastIndex(of: "/") else { return "." }
        return slash == head.startIndex ? "/" : String(head[..<slash])
    }

    // MARK: Paths

    private func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : project + "/" + path
    }

    /// `path` (relative to `base`) made absolute, with `.`, `..` and empty components taken lexically.
    static func lexical(_ path: String, from base: String) -> String {
        var parts = [Substring]()
        for part in (path.hasPrefix("/") ? path : base + "/" + path).split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    private static func inside(_ real: String, _ roots: [String]) -> Bool {
        roots.contains { Workspace.path(real, isInside: $0) }
    }

    private var readableRoots: [String] { readRoots + (temporary.map { [$0] } ?? []) }

    static let readableWhere = "specs read inside the project, the paths given to wayfinder test and the run's temporary directory (os.tmpname)"
    static let writableWhere = "specs write files only inside the run's temporary directory (os.tmpname answers there)"

    /// The real path of `path` when it leads to something specs may read.
    func readable(_ path: String) throws -> String {
        let full = absolute(path)
        guard let real = FileAccess.realPath(full) else {
            // Missing: say so only where the spec may look, so nothing outside is probed.
            let parent = (full as NSString).deletingLastPathComponent
            if let realParent = FileAccess.realPath(parent), Self.inside(realParent, readableRoots) {
                throw Refusal("\(path): No such file or directory")
            }
            throw Refusal("\(path): outside the files specs may read (\(Self.readableWhere))")
        }
        guard Self.inside(real, readableRoots) else { throw Refusal("\(path): outside the files specs may read (\(Self.readableWhere))") }
        return real
    }

    /// The path of the entry `path` names (its directory's real path and its own name, a link
    /// not followed), when that directory lies under `roots`.
    private func entry(_ path: String, under roots: [String], why: String) throws -> String {
        let full = absolute(path)
        let trimmed = full.count > 1 && full.hasSuffix("/") ? String(full.dropLast()) : full
        let name = (trimmed as NSString).lastPathComponent
        let parent = (trimmed as NSString).deletingLastPathComponent
        if name == "." || name == ".." || name == "/" {
            guard let real = FileAccess.realPath(trimmed), Self.inside(real, roots) else { throw Refusal("\(path): outside the files \(why)") }
            return real
        }
        guard let realParent = FileAccess.realPath(parent.isEmpty ? "/" : parent), Self.inside(realParent, roots) else {
            throw Refusal("\(path): outside the files \(why)")
        }
        return (realParent == "/" ? "" : realParent) + "/" + name
    }

    /// The path of a file or directory specs may make, change or remove: inside the temporary
    /// directory, never through a symbolic link (a link itself is removed, never followed).
    func writable(_ path: String) throws -> String {
        let root = try temporaryDirectory()
        let target = try entry(path, under: [root], why: "specs may change (\(Self.writableWhere))")
        guard target != root else { throw Refusal("\(path): the run's temporary directory itself cannot be changed") }
        return target
    }

    // MARK: The temporary directory

    func temporaryDirectory() throws -> String {
        if let temporary { return temporary }
        let made = try Workspace.makeTemporaryDirectory(prefix: "wayfinder-spec")
        let real = FileAccess.realPath(made) ?? made
        temporary = real
        return real
    }

    /// Removes the temporary directory and all it holds (the end of the run).
    package func removeTemporary() {
        guard let temporary else { return }
        try? FileManager.default.removeItem(atPath: temporary)
        self.temporary = nil
    }

    private func countEntry() throws {
        guard entries < Self.entryLimit else {
            throw Refusal("the run's temporary directory already holds the \(Self.entryLimit) files and directories a run may make")
        }
        entries += 1
    }

    /// os.tmpname: a new empty file in the temporary directory.
    func temporaryName() throws -> String {
        let root = try temporaryDirectory()
        try countEntry()
        var template = Array((root + "/lua_XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Refusal("os.tmpname: \(String(cString: strerror(errno)))") }
        close(fd)
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    // MARK: Reading

    /// Whether `mode` is one of Lua's io.open modes: r, w or a, then + or not, then any b.
    static func isOpenMode(_ mode: String) -> Bool {
        var rest = Substring(mode)
        guard let kind = rest.popFirst(), "rwa".contains(kind) else { return false }
        if rest.first == "+" { rest = rest.dropFirst() }
        return rest.allSatisfy { $0 == "b" }
    }

    /// io.open: a stream over `path` in Lua's `mode`. Reading only, the path must lead to a
    /// regular file specs may read, of at most the read limit; writing or updating, to a regular
    /// file (made when missing, but for r+) inside the temporary directory, opened without
    /// following a link there. The stream's reads and writes stay within ``budget``.
    func open(_ path: String, mode: String) throws -> UnsafeMutablePointer<FILE> {
        guard Self.isOpenMode(mode) else { throw Refusal("\(path): invalid mode '\(mode)'") }
        let kind = mode.first!, update = mode.dropFirst().first == "+"
        guard wf_spec_budget_open(budget) < Self.openLimit else {
            throw Refusal("\(path): the run's specs already hold the \(Self.openLimit) files they may have open at once")
        }
        let fd: Int32
        if kind == "r" && !update {
            fd = posixOpen(try readable(path), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0)
        } else {
            let target = try writable(path)
            var info = stat()
            let exists = lstat(target, &info) == 0
            if exists && (info.st_mode & S_IFMT) != S_IFREG { throw Refusal("\(path): not a regular file") }
            if !exists && kind == "r" { throw Refusal("\(path): No such file or directory") }
            if !exists { try countEntry() }
            let creating: Int32 = switch kind {
            case "w": O_CREAT | O_TRUNC
            case "a": O_CREAT | O_APPEND
            default: 0
            }
            fd = posixOpen(target, (update ? O_RDWR : O_WRONLY) | creating | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o644)
        }
        guard fd >= 0 else { throw Refusal("\(path): \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw Refusal("\(path): not a regular file")
        }
        if kind == "r" && !update && Int(info.st_size) > Self.readLimit {
            close(fd)
            throw Refusal("\(path): larger than the \(Self.readLimit >> 20) MiB a spec may read from one file")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        let streamMode = String(kind) + (update ? "+" : "")
        guard let stream = wf_spec_file(fd, streamMode, budget) else {
            close(fd)
            throw Refusal("\(path): \(String(cString: strerror(errno)))")
        }
        return stream
    }

    /// A module's text for `require`: a regular file whose real path lies inside the project,
    /// or a `.lua` file named inside a library directory (where packages install modules as
    /// links to their files elsewhere, so a link there is followed). nil when there is no such
    /// file; a refusal when it lies elsewhere.
    func moduleSource(_ path: String) throws -> [UInt8]? {
        let full = absolute(path)
        var info = stat()
        guard stat(full, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard let real = FileAccess.realPath(full) else { return nil }
        let inProject = Self.inside(real, Array(readRoots.prefix(1)))
        guard inProject || (real.hasSuffix(".lua") && Self.inside(Self.lexical(full, from: project), libraryRoots)) else { throw Refusal("outside") }
        do {
            return try FileAccess.readFile(atPath: real)
        } catch {
            if error.isNotFound { return nil }
            throw Refusal("\(path): \(error)")
        }
    }

    /// The C module file `require` would load for `name`, if one is installed.
    func cModule(_ name: String) -> String? {
        let file = name.replacingOccurrences(of: ".", with: "/")
        let top = String(file.prefix { $0 != "/" })
        for template in cModuleTemplates {
            for candidate in [file, top] {
                let path = template.replacingOccurrences(of: "?", with: candidate)
                if FileManager.default.fileExists(atPath: path) { return path }
            }
        }
        return nil
    }

    /// Names in the directory `path` ("." and ".." first, as lfs.dir gives them).
    func list(_ path: String) throws -> [String] {
        let real = try readable(path)
        guard let directory = opendir(real) else { throw Refusal("\(path): \(String(cString: strerror(errno)))") }
        defer { closedir(directory) }
        var names = [String]()
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            names.append(name)
            guard names.count <= Self.listingLimit + 2 else {
                throw Refusal("\(path): holds more than the \(Self.listingLimit) entries a spec may list")
            }
        }
        return names
    }

    /// stat (or lstat, `following` false) of `path` as lfs.attributes answers it.
    func attributes(_ path: String, following: Bool) throws -> OrderedDictionary<String, Value> {
        let target = following ? try readable(path) : try entry(path, under: readableRoots, why: "specs may read (\(Self.readableWhere))")
        var info = stat()
        let status = following ? stat(target, &info) : lstat(target, &info)
        guard status == 0 else { throw Refusal("cannot obtain information from file '\(path)': \(String(cString: strerror(errno)))") }
        let mode: String = switch info.st_mode & S_IFMT {
        case S_IFREG: "file"
        case S_IFDIR: "directory"
        case S_IFLNK: "link"
        case S_IFIFO: "named pipe"
        case S_IFSOCK: "socket"
        case S_IFCHR: "char device"
        case S_IFBLK: "block device"
        default: "other"
        }
        var permissions = ""
        for (bit, letter) in [(S_IRUSR, "r"), (S_IWUSR, "w"), (S_IXUSR, "x"), (S_IRGRP, "r"), (S_IWGRP, "w"), (S_IXGRP, "x"),
                              (S_IROTH, "r"), (S_IWOTH, "w"), (S_IXOTH, "x")] {
            permissions += info.st_mode & bit != 0 ? letter : "-"
        }
        var answer: OrderedDictionary<String, Value> = [
            "mode": .string(mode), "size": .int(Int64(info.st_size)), "modification": .int(Int64(info.st_mtim.tv_sec)),
            "access": .int(Int64(info.st_atim.tv_sec)), "change": .int(Int64(info.st_ctim.tv_sec)), "permissions": .string(permissions),
            "nlink": .int(Int64(info.st_nlink)), "uid": .int(Int64(info.st_uid)), "gid": .int(Int64(info.st_gid)),
            "ino": .int(Int64(info.st_ino)), "dev": .int(Int64(info.st_dev)), "rdev": .int(Int64(info.st_rdev)),
            "blocks": .int(Int64(info.st_blocks)), "blksize": .int(Int64(info.st_blksize)),
        ]
        if !following && mode == "link" {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let count = readlink(target, &buffer, Int(PATH_MAX))
            if count >= 0 { answer["target"] = .string(String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
        }
        return answer
    }

    // MARK: Writing

    func makeDirectory(_ path: String) throws {
        let target = try writable(path)
        try countEntry()
        guard mkdir(target, 0o755) == 0 else { throw Refusal("\(path): \(String(cString: strerror(errno)))") }
    }

    func removeDirectory(_ path: String) throws {
        let target = try writable(path)
        guard rmdir(target) == 0 else { throw Refusal("\(path): \(String(cString: strerror(errno)))") }
    }

    /// os.remove: a file, a link or an empty directory.
    func remove(_ path: String) throws {
        let target = try writable(path)
        guard posixRemove(target) == 0 else { throw Refusal("\(path): \(String(cString: strerror(errno)))") }
    }

    func rename(_ from: String, _ to: String) throws {
        let source = try writable(from), destination = try writable(to)
        guard posixRename(source, destination) == 0 else { throw Refusal("\(from): \(String(cString: strerror(errno)))") }
    }

    /// lfs.touch: makes the file when missing, and sets its times (now when not given).
    func touch(_ path: String, access: Int64?, modification: Int64?) throws {
        let target = try writable(path)
        var info = stat()
        if lstat(target, &info) != 0 {
            try countEntry()
            let fd = posixOpen(target, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)
            guard fd >= 0 else { throw Refusal("\(path): \(String(cString: strerror(errno)))") }
            close(fd)
        }
        var times = [timespec(), timespec()]
        let now = time(nil)
        times[0].tv_sec = Int(access ?? Int64(now))
        times[1].tv_sec = Int(modification ?? access ?? Int64(now))
        guard utimensat(AT_FDCWD, target, &times, AT_SYMLINK_NOFOLLOW) == 0 else {
            throw Refusal("\(path): \(String(cString: strerror(errno)))")
        }
    }
}

// The C library's calls, named apart from SpecFiles' methods of the same names.
private func posixOpen(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 { open(path, flags, permissions) }
private func posixRemove(_ path: String) -> Int32 { remove(path) }
private func posixRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }

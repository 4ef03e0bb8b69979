import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The navigation state as one JSON file per app, by default
/// `$XDG_STATE_HOME/wayfinder/<app>.json`. Writes are atomic: the document goes to a temporary
/// file beside the target, is flushed to disk, and replaces the target by rename, so a crash or
/// `kill -9` at any moment leaves the last complete write; temporary files such a crash left are
/// removed at the next load. A file that cannot be read (not JSON, cut short, another format or
/// version, parts that do not fit) is moved aside as `<file>.corrupt-<time>` and reported; the app
/// starts fresh.
///
/// Only a regular file, or a missing path, is a state file. A symbolic link is followed: the file
/// it leads to is read and written (replaced by rename beside it), never the link. Anything else (a
/// directory, a FIFO, a device, a socket, a link to nothing) is refused and left untouched.
///
/// An existing file is only Wayfinder's when it is recognizably a state: JSON whose `format` is
/// `wayfinder.navigation`, or, when it does not parse (cut short, damaged), text that holds the
/// marker `"wayfinder.navigation"`. Any other file (an app's source given as the state path, say)
/// is refused and left as it is, by loading and saving alike. A corrupt state behind a symbolic
/// link is refused too, not moved aside (that would leave the link leading nowhere).
public struct FileStateStore: StateStore {
    /// The state file's path.
    public let path: String
    /// Larger files are not read: a navigation state is a few kilobytes.
    public static let maximumSize = 16 << 20
    /// How long a launch waits for another process that owns the state file (StateClaim).
    public static let standardClaimWait = 10.0
    /// How long this store's claim waits, in seconds.
    public var claimWait: Double

    /// A store for the file at `path`; `claimWait` is how many seconds a launch waits for another process's
    /// claim on the file to end.
    public init(path: String, claimWait: Double = Self.standardClaimWait) {
        self.path = path
        self.claimWait = claimWait
    }

    /// `$XDG_STATE_HOME/wayfinder/<app>.json`, with `~/.local/state` when XDG_STATE_HOME is
    /// unset or not absolute (as the XDG base directory spec says). Characters other than
    /// letters, digits, `.`, `-` and `_` in the app's name become `_`.
    public static func defaultPath(app: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        var base = environment["XDG_STATE_HOME"] ?? ""
        if !base.hasPrefix("/") {
            base = (environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.local/state"
        }
        let safe = String(app.map { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) ? $0 : "_" })
        return base + "/wayfinder/" + (safe.isEmpty || safe.hasPrefix(".") ? "app" + safe : safe) + ".json"
    }

    // MARK: Loading

    public func load() -> StateLoad {
        let target: String
        do throws(StateStoreError) {
            guard let found = try existingTarget() else {
                removeLeftoverTemporaryFiles(beside: path)
                return .missing
            }
            target = found
        } catch {
            return .unreadable(reason: error.reason, keptAt: nil)
        }
        removeLeftoverTemporaryFiles(beside: target)
        let reason: String
        var data = Data()
        do {
            data = try Self.readState(target)
            // Checked before decoding: Foundation leaks a buffer decoding an empty document.
            guard !data.isEmpty else { throw NavigationStateError.invalid("the file is empty") }
            let state = try Self.state(from: data)
            return .loaded(state)
        } catch let error as ReadRefusal {
            return .unreadable(reason: error.description, keptAt: nil)
        } catch {
            reason = String(describing: error)
        }
        if let refusal = Self.refusal(ofCorrupt: target, behindLink: target != path, data: data) {
            return .unreadable(reason: "\(path) \(refusal)", keptAt: nil)
        }
        return .unreadable(reason: reason, keptAt: moveAside(target))
    }

    /// Why an existing file that does not load as a state must be left untouched, or nil when it
    /// is Wayfinder's own and may be moved aside. `data` is what was read (empty when nothing was).
    private static func refusal(ofCorrupt target: String, behindLink: Bool, data: Data) -> String? {
        let bytes = data.isEmpty ? ((try? readState(target, upTo: maximumSize)) ?? Data()) : data
        guard isState(bytes) else { return "is not a Wayfinder state file; it was left as it is" }
        if behindLink { return "is a symbolic link to a state file that cannot be read (\(target)); it was left as it is" }
        return nil
    }

    /// Whether the bytes are recognizably a navigation state: JSON whose `format` is the marker,
    /// or, when they do not parse, text holding the marker in quotes.
    static func isState(_ data: Data) -> Bool {
        if let parsed = try? JSON.decode(bytes: Array(data)) {
            return parsed["format"]?.stringValue == NavigationState.format
        }
        return data.range(of: Data("\"\(NavigationState.format)\"".utf8)) != nil
    }

    /// The state the bytes hold, checked (`validate`): how a state file is read, for a program
    /// that reads one from elsewhere too (an import).
    public static func state(from data: Data) throws -> NavigationState {
        let state = try NavigationState(document: try JSON.decode(bytes: Array(data)))
        try state.validate()
        return state
    }

    /// How `text(of:)` begins every file: the format member, on a line of its own.
    static let firstLine = Data("{\"format\":\"\(NavigationState.format)\",\n".utf8)

    /// The file's text: the document's members one to a line, `format` on the first, so a file
    /// cut short anywhere after its first line is still recognizably a state (and moved aside as
    /// corrupt, not refused as another program's file).
    public static func text(of state: NavigationState) throws(JSON.EncodingError) -> String {
        guard case .map(let members) = state.document else { return try JSON.encode(state.document) }
        var lines = [String]()
        for (key, value) in members { lines.append(try JSON.encode(.string(key)) + ":" + JSON.encode(value)) }
        return "{" + lines.joined(separator: ",\n") + "}"
    }

    /// Throws when an existing file at the path may not be replaced: it is not a state, or it is a
    /// corrupt state behind a symbolic link. The regular file's path, nil when there is none.
    private func replaceableTarget() throws(StateStoreError) -> String? {
        guard let target = try existingTarget() else { return nil }
        // A file that begins as every save writes one is ours, whole or cut short: the first line
        // is enough, so a save does not read and decode the state it replaces. Behind a link, a
        // state that does not load is still left alone, which takes reading all of it.
        if target == path, let head = try? Self.readState(target, upTo: Self.firstLine.count), head.elementsEqual(Self.firstLine) {
            return target
        }
        let data: Data
        do { data = try Self.readState(target, upTo: Self.maximumSize) } catch {
            throw StateStoreError(path: path, reason: "\(error)")
        }
        // Not behind a link, a file recognizably a state is ours to replace whether it loads or
        // not, so only a link's target is decoded in full.
        if target != path, (try? Self.state(from: data)) != nil { return target }
        if let refusal = Self.refusal(ofCorrupt: target, behindLink: target != path, data: data) {
            throw StateStoreError(path: path, reason: "it " + refusal)
        }
        return target
    }

    /// Why the path cannot be a state file, or nil when it can (a regular file, a link to one, or
    /// a missing path). Nothing is changed.
    public var problem: String? {
        do throws(StateStoreError) {
            _ = try replaceableTarget()
            return nil
        } catch {
            return "\(path): \(error.reason)"
        }
    }

    /// `problem`, for a path given by the user (`--state`): its directory must exist too, since a
    /// path given is used as given, never made (only the default path's directory is created).
    public var problemAsGiven: String? {
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "\(path): its directory \(directory) does not exist"
        }
        return problem
    }

    /// The regular file holding the state (the path, or where its symbolic link leads), nil when
    /// there is none yet; throws when the path is something else, which is then left alone.
    func existingTarget() throws(StateStoreError) -> String? {
        var info = stat()
        guard lstat(path, &info) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            throw StateStoreError(path: path, reason: String(cString: strerror(errno)))
        }
        var target = path
        if (info.st_mode & S_IFMT) == S_IFLNK {
            guard let resolved = realpath(path, nil) else {
                throw StateStoreError(path: path, reason: "it is a symbolic link to nothing that exists; it was left as it is")
            }
            target = String(cString: resolved)
            free(resolved)
            guard stat(target, &info) == 0 else { throw StateStoreError(path: path, reason: String(cString: strerror(errno))) }
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw StateStoreError(path: path, reason: "it is \(Self.kind(of: info.st_mode)), not a regular file; it was left as it is")
        }
        return target
    }

    private static func kind(of mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        default: return "not a file"
        }
    }

    struct ReadRefusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The file's bytes, opened without blocking and checked again once open (it may have been
    /// swapped since it was looked at); over `maximumSize` it is corrupt.
    static func readState(_ target: String, upTo prefix: Int? = nil) throws -> Data {
        let file = open(target, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard file >= 0 else { throw ReadRefusal(description: "cannot read \(target): \(String(cString: strerror(errno)))") }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw ReadRefusal(description: "\(target) is not a regular file; it was left as it is")
        }
        guard prefix != nil || info.st_size <= maximumSize else { throw NavigationStateError.invalid("larger than \(maximumSize) bytes") }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw ReadRefusal(description: "cannot read \(target): \(String(cString: strerror(errno)))")
            }
            data.append(contentsOf: buffer[0..<count])
            if let prefix, data.count >= prefix { return data.prefix(prefix) }
            guard data.count <= maximumSize else { throw NavigationStateError.invalid("larger than \(maximumSize) bytes") }
        }
        return data
    }

    /// The prefix of the temporary files a write of `target` makes; the writer's process id, its
    /// start time and a random number follow (`TemporaryFile`).
    static func temporaryPrefix(for target: String) -> (directory: String, prefix: String) {
        let directory = (target as NSString).deletingLastPathComponent
        return (directory, ".\((target as NSString).lastPathComponent).tmp-")
    }

    /// Removes what writes of this file killed half-way left behind: every name made like its
    /// temporary files (a file, a link, a FIFO...) whose writer is no longer running. Only the name
    /// goes (a link is never followed); a name that does not read as one of ours stays.
    func removeLeftoverTemporaryFiles(beside target: String) {
        let (directory, prefix) = Self.temporaryPrefix(for: target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory) else { return }
        for name in names where name.hasPrefix(prefix) {
            guard let writer = TemporaryFile.writer(named: name.dropFirst(prefix.count)), !writer.isRunning else { continue }
            unlink((directory.isEmpty ? "" : directory + "/") + name)
        }
    }

    /// Moves the file to `<file>.<label>-<UTC time>` (with `-2`, `-3`... when that is taken).
    func moveAside(_ path: String, label: String = "corrupt") -> String? {
        let candidate = Self.asideName(for: path, label: label)
        return rename(path, candidate) == 0 ? candidate : nil
    }

    /// `<file>.<label>-<UTC time>`, or with `-2`, `-3`... when that is taken.
    static func asideName(for path: String, label: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = path + "." + label + "-" + formatter.string(from: Date())
        var candidate = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: candidate) {
            attempt += 1
            candidate = base + "-\(attempt)"
        }
        return candidate
    }

    // MARK: Writing

    /// Writes the state, replacing the previous file only once the new one is complete. A state
    /// over `maximumSize` (which could not be read back) is refused, naming its largest entry, and
    /// the previous file stays.
    public func save(_ state: NavigationState) throws(StateStoreError) {
        let data: Data
        do { data = Data(try Self.text(of: state).utf8) } catch { throw StateStoreError(path: path, reason: "cannot encode it: \(error)") }
        guard data.count <= Self.maximumSize else {
            throw StateStoreError(path: path, reason: "the state is \(data.count) bytes, over the \(Self.maximumSize >> 20) MiB a state file may hold"
                + Self.largestEntry(of: state) + "; the previous file stays")
        }
        let target = try replaceableTarget() ?? path
        let (directory, prefix) = Self.temporaryPrefix(for: target)
        do {
            try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
        } catch {
            throw StateStoreError(path: path, reason: "cannot create the directory \(directory)")
        }
        do throws(StateStoreError) {
            let temporary = try TemporaryFile.make(holding: data, directory: directory, prefix: prefix)
            guard rename(temporary, target) == 0 else {
                let failure = Self.failure("rename")
                unlink(temporary)
                throw failure
            }
        } catch {
            throw StateStoreError(path: path, reason: error.reason)
        }
        // The rename itself reaches the disk with the directory.
        let directoryFile = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK)
        if directoryFile >= 0 {
            fsync(directoryFile)
            close(directoryFile)
        }
    }

    /// `; the largest entry is 'URL' (N bytes with its context)`, or nothing when there are none.
    private static func largestEntry(of state: NavigationState) -> String {
        var largest: (url: String, bytes: Int)?
        for entry in state.entries {
            var bytes = (try? JSON.encode(entry.document).utf8.count) ?? 0
            if let index = entry.context, state.contexts.indices.contains(index) {
                bytes += (try? JSON.encode(state.contexts[index].document).utf8.count) ?? 0
            }
            if bytes > largest?.bytes ?? -1 { largest = (entry.url, bytes) }
        }
        guard let largest else { return "" }
        return "; the largest entry is '\(largest.url)' (\(largest.bytes) bytes with its context)"
    }

    /// Removes the state file (the file a symbolic link leads to, not the link); a path that is not
    /// a state file (or a file that is not Wayfinder's) is refused and left alone.
    public func remove() throws(StateStoreError) {
        guard let target = try replaceableTarget() else {
            removeLeftoverTemporaryFiles(beside: path)
            return
        }
        removeLeftoverTemporaryFiles(beside: target)
        if unlink(target) != 0 && errno != ENOENT {
            throw StateStoreError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    static func failure(_ step: String) -> StateStoreError {
        StateStoreError(path: "", reason: "\(step): \(String(cString: strerror(errno)))")
    }
}

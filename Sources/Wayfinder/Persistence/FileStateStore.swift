import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The navigation state as one JSON file per app, by default
/// `$XDG_STATE_HOME/wayfinder/<app>.json`. Writes are atomic: the document goes to a temporary
/// file beside the target, is flushed to disk, and replaces the target by rename, so a crash or
/// `kill -9` at any moment leaves the last complete write. A file that cannot be read (not JSON,
/// cut short, another format or version, parts that do not fit) is moved aside as
/// `<file>.corrupt-<time>` and reported; the app starts fresh.
public struct FileStateStore: StateStore {
    public let path: String
    /// Larger files are not read: a navigation state is a few kilobytes.
    public static let maximumSize = 16 << 20

    public init(path: String) {
        self.path = path
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
        var info = stat()
        guard stat(path, &info) == 0 else {
            if errno == ENOENT { return .missing }
            return .unreadable(reason: "cannot read \(path): \(String(cString: strerror(errno)))", keptAt: nil)
        }
        let reason: String
        do {
            guard info.st_size <= Self.maximumSize else { throw NavigationStateError.invalid("larger than \(Self.maximumSize) bytes") }
            // Checked before reading: Foundation leaks a buffer reading an empty file.
            guard info.st_size > 0 else { throw NavigationStateError.invalid("the file is empty") }
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard !data.isEmpty else { throw NavigationStateError.invalid("the file is empty") }
            let state = try Self.decoder.decode(NavigationState.self, from: data)
            try state.validate()
            return .loaded(state)
        } catch let error as DecodingError {
            reason = Self.describe(error)
        } catch {
            reason = String(describing: error)
        }
        return .unreadable(reason: reason, keptAt: moveAside())
    }

    /// Moves the file to `<file>.corrupt-<UTC time>` (with `-2`, `-3`... when that is taken).
    private func moveAside() -> String? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
        let base = path + ".corrupt-" + formatter.string(from: Date())
        var candidate = base
        var attempt = 1
        while FileManager.default.fileExists(atPath: candidate) {
            attempt += 1
            candidate = base + "-\(attempt)"
        }
        return rename(path, candidate) == 0 ? candidate : nil
    }

    private static func describe(_ error: DecodingError) -> String {
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0 + 1)]" } ?? ".\($0.stringValue)" }.joined()
            return path.isEmpty ? "" : " at \(path.hasPrefix(".") ? String(path.dropFirst()) : path)"
        }
        switch error {
        case .dataCorrupted(let context):
            if let underlying = context.underlyingError { return "not valid JSON: \(underlying.localizedDescription)" }
            return context.debugDescription + at(context)
        case .keyNotFound(let key, let context): return "'\(key.stringValue)' is missing" + at(context)
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return context.debugDescription + at(context)
        @unknown default: return String(describing: error)
        }
    }

    // MARK: Writing

    public func save(_ state: NavigationState) throws(StateStoreError) {
        let data: Data
        do { data = try Self.encoder.encode(state) } catch { throw StateStoreError(path: path, reason: "cannot encode it: \(error)") }
        let directory = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: directory.isEmpty ? "." : directory, withIntermediateDirectories: true)
        } catch {
            throw StateStoreError(path: path, reason: "cannot create \(directory): \(error.localizedDescription)")
        }
        let name = (path as NSString).lastPathComponent
        let temporary = (directory.isEmpty ? "" : directory + "/") + ".\(name).tmp-\(getpid())"
        do throws(StateStoreError) {
            try Self.writeAndSync(data, to: temporary)
            guard rename(temporary, path) == 0 else { throw Self.failure("rename") }
        } catch {
            unlink(temporary)
            throw StateStoreError(path: path, reason: error.reason)
        }
        // The rename itself reaches the disk with the directory.
        let directoryFile = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryFile >= 0 {
            fsync(directoryFile)
            close(directoryFile)
        }
    }

    public func remove() throws(StateStoreError) {
        if unlink(path) != 0 && errno != ENOENT {
            throw StateStoreError(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private static func writeAndSync(_ data: Data, to temporary: String) throws(StateStoreError) {
        let file = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard file >= 0 else { throw failure("open \(temporary)") }
        defer { close(file) }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let count = write(file, bytes.baseAddress! + offset, bytes.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        guard written else { throw failure("write") }
        guard fsync(file) == 0 else { throw failure("fsync") }
    }

    private static func failure(_ step: String) -> StateStoreError {
        StateStoreError(path: "", reason: "\(step): \(String(cString: strerror(errno)))")
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Tells when the Lua files of an app directory (and its subdirectories) change: through
/// inotify where the system has it, which also sees an editor's save by rename, else by polling
/// modification times. Changes that come in a burst (an editor writing a temporary file, then
/// renaming it) are gathered into one answer after a short quiet period.
///
/// The watcher never blocks on its own: `fileDescriptor` (inotify) can join a `poll(2)` with
/// other inputs, and `changes()` returns at once what happened since the last call.
public final class DirectoryWatcher {
    /// How changes are seen: by inotify (Linux), or by polling modification times.
    public enum Mechanism: String, Sendable {
        /// Linux's inotify: the system says which files changed, a save by rename included.
        case inotify
        /// Modification times, sizes and inodes compared every `pollInterval`.
        case polling
    }

    /// The directory watched, standardized.
    public let directory: String
    /// inotify, unless it was not available (or `polling` was asked for).
    public private(set) var mechanism = Mechanism.polling
    /// How long a burst must stay quiet before it is reported.
    public let debounce: Duration
    /// How often polling looks at the files (the longest wait between `poll(2)` wake-ups).
    public let pollInterval: Duration

    private var inotify: Int32 = -1
    private var watches: [Int32: String] = [:]
    private var stamps: [String: FileStamp] = [:]

    /// Starts watching `directory`. `polling` forces the fallback (also used when inotify cannot
    /// be set up).
    public init(directory: String, polling: Bool = false, debounce: Duration = .milliseconds(40),
                pollInterval: Duration = .milliseconds(200)) {
        self.directory = URL(fileURLWithPath: directory).standardizedFileURL.path
        self.debounce = debounce
        self.pollInterval = pollInterval
        if !polling && startInotify() {
            mechanism = .inotify
        } else {
            stamps = Self.stamps(under: self.directory)
        }
    }

    deinit {
        if inotify >= 0 { close(inotify) }
    }

    /// The descriptor that becomes readable when inotify has events; nil when polling.
    public var fileDescriptor: Int32? { inotify >= 0 ? inotify : nil }

    /// How long a `poll(2)` may sleep before `changes()` should be asked again: forever (-1)
    /// with inotify, whose descriptor wakes it; the poll interval otherwise.
    public var pollTimeout: Int32 {
        inotify >= 0 ? -1 : Int32(clamping: Self.milliseconds(pollInterval))
    }

    /// The Lua files (relative paths) that changed since the last call, after the burst they
    /// came in went quiet; empty when nothing changed.
    public func changes() -> [String] {
        var changed = Set<String>()
        if inotify >= 0 {
            var more = drain(into: &changed)
            while more {
                pause(debounce)
                more = drain(into: &changed)
            }
        } else {
            var latest = Self.stamps(under: directory)
            var differing = Self.differences(stamps, latest)
            while !differing.isEmpty {
                changed.formUnion(differing)
                stamps = latest
                pause(debounce)
                latest = Self.stamps(under: directory)
                differing = Self.differences(stamps, latest)
            }
        }
        return changed.filter { $0.hasSuffix(".lua") }.sorted()
    }

    /// Waits up to `timeout` for a change; the changed files, or empty at the timeout.
    public func wait(timeout: Duration) -> [String] {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            let found = changes()
            if !found.isEmpty { return found }
            let left = deadline - clock.now
            if left <= .zero { return [] }
            if let fd = fileDescriptor {
                var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, Int32(clamping: Self.milliseconds(min(left, .seconds(1)))))
            } else {
                pause(min(left, pollInterval))
            }
        }
    }

    // MARK: inotify

    /// Watches every directory of the app; false (and nothing kept open) when the system has no
    /// inotify or refuses a watch (too many, say), so polling takes over.
    private func startInotify() -> Bool {
        #if os(Linux)
        inotify = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
        guard inotify >= 0 else { return false }
        for subdirectory in Self.directories(under: directory) where !addWatch(subdirectory) {
            close(inotify)
            inotify = -1
            watches = [:]
            return false
        }
        return true
        #else
        return false
        #endif
    }

    private func addWatch(_ path: String) -> Bool {
        #if os(Linux)
        let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE | IN_ATTRIB | IN_MODIFY)
        let wd = inotify_add_watch(inotify, path, mask)
        guard wd >= 0 else { return false }
        watches[wd] = path
        return true
        #else
        return false
        #endif
    }

    /// Reads every queued event; whether there were any.
    private func drain(into changed: inout Set<String>) -> Bool {
        var any = false
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(inotify, $0.baseAddress, $0.count) }
            guard count > 0 else { return any }
            any = true
            var offset = 0
            while offset + 16 <= count {
                let (wd, mask, length) = buffer.withUnsafeBytes { raw in
                    (raw.loadUnaligned(fromByteOffset: offset, as: Int32.self),
                     raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self),
                     Int(raw.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self)))
                }
                let nameBytes = buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }
                let name = String(decoding: nameBytes, as: UTF8.self)
                offset += 16 + length
                guard let base = watches[wd], !name.isEmpty else { continue }
                let path = base + "/" + name
                #if os(Linux)
                if mask & UInt32(IN_ISDIR) != 0 {
                    if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                        // A new directory: watch it, and report the Lua files already in it.
                        for subdirectory in Self.directories(under: path) { _ = addWatch(subdirectory) }
                        changed.formUnion(Self.stamps(under: path).keys.map { relative(path + "/" + $0) })
                    }
                    continue
                }
                #endif
                changed.insert(relative(path))
            }
        }
    }

    private func relative(_ path: String) -> String {
        path.hasPrefix(directory + "/") ? String(path.dropFirst(directory.count + 1)) : path
    }

    // MARK: Polling

    private struct FileStamp: Equatable {
        var modified: timespec
        var size: Int
        var inode: UInt

        static func == (a: FileStamp, b: FileStamp) -> Bool {
            a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec && a.size == b.size && a.inode == b.inode
        }
    }

    /// Every file under `root` (hidden ones left out) with what identifies its version: the
    /// inode catches a save by rename that keeps size and modification time.
    private static func stamps(under root: String) -> [String: FileStamp] {
        var found: [String: FileStamp] = [:]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return found }
        for case let relative as String in walker {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var info = stat()
            guard stat(root + "/" + relative, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { continue }
            found[relative] = FileStamp(modified: Self.modified(info), size: Int(info.st_size), inode: UInt(info.st_ino))
        }
        return found
    }

    private static func modified(_ info: stat) -> timespec {
        #if canImport(Darwin)
        info.st_mtimespec
        #else
        info.st_mtim
        #endif
    }

    private static func differences(_ old: [String: FileStamp], _ new: [String: FileStamp]) -> Set<String> {
        Set(new.filter { old[$0.key] != $0.value }.keys).union(old.keys.filter { new[$0] == nil })
    }

    private static func directories(under root: String) -> [String] {
        var found = [root]
        guard let walker = FileManager.default.enumerator(atPath: root) else { return found }
        for case let relative as String in walker {
            if relative.split(separator: "/").contains(where: { $0.hasPrefix(".") }) { continue }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + relative, isDirectory: &isDirectory), isDirectory.boolValue {
                found.append(root + "/" + relative)
            }
        }
        return found
    }

    // MARK: Time

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds) * 1000 + Int(duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private func pause(_ duration: Duration) {
        usleep(UInt32(clamping: Self.milliseconds(duration) * 1000))
    }
}

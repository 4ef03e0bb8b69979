import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A process's hold on a state file: while any claim on it lives, no other process that claims
/// it too (every Wayfinder launch does) runs on it. It is an advisory lock (`flock`) on
/// `<file>.lock` beside the state path as given, a file that holds the holder's process id and
/// start time (`{"format":"wayfinder.lock","pid":...,"started":...}`) and stays when the holder
/// ends: the system lets the lock go with the process, however it ends. Claims of one process on
/// one file share one lock (a relaunch, a second host in the same program).
public final class StateClaim {
    private let held: HeldLock

    fileprivate init(_ held: HeldLock) {
        self.held = held
    }

    /// Claims the file whose lock is at `lockPath`, waiting up to `wait` seconds for another
    /// process to let it go. Throws when it does not in time (naming the holder's process id when
    /// the lock file says it), or when something at the lock's path is not a Wayfinder lock
    /// (left as it is).
    static func claim(lockPath: String, statePath: String, wait: Double) throws(StateStoreError) -> StateClaim {
        try Registry.shared.claim(lockPath: lockPath, statePath: statePath, wait: wait)
    }
}

/// The lock of one file, held by this process.
private final class HeldLock {
    let file: Int32
    let key: FileKey

    init(file: Int32, key: FileKey) {
        self.file = file
        self.key = key
    }

    deinit {
        // Closing the last descriptor of the lock lets it go; a claim of this process waiting
        // for it then gets it.
        close(file)
        Registry.shared.forget(key)
    }
}

private struct FileKey: Hashable {
    let device: UInt64
    let inode: UInt64
}

/// This process's held locks, by file: a second claim of a file already held shares its lock
/// (`flock` on a second descriptor would wait for the first).
private final class Registry: @unchecked Sendable {
    static let shared = Registry()
    private let guarding = NSLock()
    private var held = [FileKey: Weak]()

    private struct Weak {
        weak var lock: HeldLock?
    }

    /// Larger files at the lock's path are not locks.
    private static let maximumSize = 4096
    private static let format = "wayfinder.lock"

    func forget(_ key: FileKey) {
        guarding.lock()
        defer { guarding.unlock() }
        if held[key]?.lock == nil { held[key] = nil }
    }

    func claim(lockPath: String, statePath: String, wait: Double) throws(StateStoreError) -> StateClaim {
        guarding.lock()
        defer { guarding.unlock() }
        func refusal(_ reason: String) -> StateStoreError { StateStoreError(path: lockPath, reason: reason) }
        // The state's directory is made as the first save makes it.
        let directory = (lockPath as NSString).deletingLastPathComponent
        if !directory.isEmpty { try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        // Never follows a link, never waits on a FIFO: only a regular file is opened as the lock.
        let file = open(lockPath, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard file >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw refusal("\(reason); it was left as it is")
        }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(file)
            throw refusal("it is not a regular file; it was left as it is")
        }
        let key = FileKey(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
        if let lock = held[key]?.lock {
            close(file)
            return StateClaim(lock)
        }
        let contents = Self.contents(of: file)
        guard contents.isEmpty || contents.range(of: Data("\"\(Self.format)\"".utf8)) != nil else {
            close(file)
            throw refusal("it is not a Wayfinder state lock; it was left as it is")
        }
        let deadline = Date().addingTimeInterval(max(wait, 0))
        while flock(file, LOCK_EX | LOCK_NB) != 0 {
            let failure = errno
            guard failure == EWOULDBLOCK || failure == EINTR, Date() < deadline else {
                let holder = failure == EWOULDBLOCK ? Self.holder(in: Self.contents(of: file)) : nil
                close(file)
                if failure != EWOULDBLOCK { throw refusal("cannot lock it: \(String(cString: strerror(failure)))") }
                throw StateStoreError(path: statePath, reason: "it is in use by "
                    + (holder.map { "another running Wayfinder app (process \($0))" } ?? "another running Wayfinder app")
                    + "; waited \(Self.seconds(wait)) for it (\(lockPath) is its lock)")
            }
            usleep(20_000)
        }
        Self.sign(file)
        let lock = HeldLock(file: file, key: key)
        held[key] = Weak(lock: lock)
        return StateClaim(lock)
    }

    /// Writes this process's id and start time in the lock, for a launch that waits to name it.
    private static func sign(_ file: Int32) {
        let me = ProcessIdentity.current
        let text = "{\"format\":\"\(format)\",\"pid\":\(me.pid)" + (me.started.map { ",\"started\":\($0)" } ?? "") + "}\n"
        guard ftruncate(file, 0) == 0 else { return }
        _ = text.utf8CString.withUnsafeBytes { pwrite(file, $0.baseAddress, $0.count - 1, 0) }
    }

    private static func contents(of file: Int32) -> Data {
        var buffer = [UInt8](repeating: 0, count: maximumSize + 1)
        let count = buffer.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, 0) }
        return count > 0 ? Data(buffer[0..<count]) : Data()
    }

    /// The holder's process id as its lock file says.
    private static func holder(in data: Data) -> Int64? {
        guard let document = try? JSON.decode(bytes: Array(data)), case .int(let pid)? = document["pid"] else { return nil }
        return pid
    }

    private static func seconds(_ wait: Double) -> String {
        wait == wait.rounded() ? "\(Int(wait)) s" : "\(wait) s"
    }
}

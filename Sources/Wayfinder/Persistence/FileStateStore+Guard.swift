import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The file store keeps a state aside beside itself, and marks a launch under way in
/// `<file>.launching`, a small JSON document whose `format` is `wayfinder.launch`. As with the
/// state, only a file that is recognizably a mark is ever read as one, replaced or removed; the
/// mark path's symbolic link, directory or any other file is refused and left as it is.
extension FileStateStore: GuardedStateStore {
    /// Where the mark of a launch under way is kept: beside the state path as given.
    public var launchMarkPath: String { path + ".launching" }

    /// Where the lock of the state's owner is kept (StateClaim): beside the state path as given.
    public var lockPath: String { path + ".lock" }

    /// Claims the state for this process (StateClaim), waiting up to `claimWait` seconds for
    /// another process that holds it.
    public func claim() throws(StateStoreError) -> StateClaim? {
        try StateClaim.claim(lockPath: lockPath, statePath: path, wait: claimWait)
    }

    /// Larger files at the mark's path are not marks: a mark is a few hundred bytes.
    private static let maximumMarkSize = 64 * 1024

    /// Moves the state to `<file>.<reason>-<UTC time>`. Behind a symbolic link a copy is kept
    /// there instead, and the file the link leads to stays for the next save to replace, so the
    /// link never leads nowhere.
    public func setAside(_ reason: SetAsideReason) throws(StateStoreError) -> String {
        guard let target = try existingTarget() else { throw StateStoreError(path: path, reason: "there is no state to set aside") }
        if target == path {
            guard let moved = moveAside(target, label: reason.rawValue) else {
                throw StateStoreError(path: path, reason: "cannot move it aside: \(String(cString: strerror(errno)))")
            }
            return moved
        }
        let data: Data
        do { data = try Self.readState(target) } catch {
            throw StateStoreError(path: path, reason: "cannot read \(target) to keep it aside: \(error)")
        }
        let copy = Self.asideName(for: target, label: reason.rawValue)
        let (directory, prefix) = Self.temporaryPrefix(for: copy)
        do throws(StateStoreError) {
            let temporary = try TemporaryFile.make(holding: data, directory: directory, prefix: prefix)
            guard rename(temporary, copy) == 0 else {
                let failure = StateStoreError(path: path, reason: "cannot keep a copy at \(copy): \(String(cString: strerror(errno)))")
                unlink(temporary)
                throw failure
            }
        } catch {
            throw StateStoreError(path: path, reason: error.reason)
        }
        return copy
    }

    /// The mark at `launchMarkPath`, nil when there is none. A file there that is not a mark is
    /// refused (it throws) and left as it is; a mark of Wayfinder's that is damaged (cut short by
    /// a crash of the system) counts one launch.
    public func launchMark() throws(StateStoreError) -> LaunchMark? {
        let markPath = launchMarkPath
        removeLeftoverTemporaryFiles(beside: markPath)
        let file = open(markPath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW)
        guard file >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return nil }
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw StateStoreError(path: markPath, reason: "\(reason); it was left as it is")
        }
        defer { close(file) }
        var info = stat()
        guard fstat(file, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            throw StateStoreError(path: markPath, reason: "it is not a regular file; it was left as it is")
        }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while data.count <= Self.maximumMarkSize {
            let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                throw StateStoreError(path: markPath, reason: String(cString: strerror(errno)))
            }
            data.append(contentsOf: buffer[0..<count])
        }
        if data.count <= Self.maximumMarkSize, let document = try? JSON.decode(String(decoding: data, as: UTF8.self)),
           let mark = LaunchMark(document: document) {
            return mark
        }
        guard data.count <= Self.maximumMarkSize, data.range(of: Data("\"\(LaunchMark.format)\"".utf8)) != nil else {
            throw StateStoreError(path: markPath, reason: "it is not a Wayfinder launch mark; it was left as it is")
        }
        return LaunchMark(launches: 1, url: nil)
    }

    /// Replaces the mark by rename. The mark outlives the process that wrote it as soon as the
    /// rename returns (the system holds it); it is not forced to the disk, since a crash of the
    /// whole system losing it leaves one launch uncounted, no worse.
    public func writeLaunchMark(_ mark: LaunchMark) throws(StateStoreError) {
        let markPath = launchMarkPath
        _ = try launchMark()
        let data: Data
        do { data = Data(try JSON.encode(mark.document).utf8) } catch { throw StateStoreError(path: markPath, reason: "cannot encode the mark: \(error)") }
        let (directory, prefix) = Self.temporaryPrefix(for: markPath)
        do throws(StateStoreError) {
            let temporary = try TemporaryFile.make(holding: data, directory: directory, prefix: prefix, sync: false)
            guard rename(temporary, markPath) == 0 else {
                let failure = Self.failure("rename")
                unlink(temporary)
                throw failure
            }
        } catch {
            throw StateStoreError(path: markPath, reason: error.reason)
        }
    }

    public func removeLaunchMark() throws(StateStoreError) {
        guard try launchMark() != nil else { return }
        if unlink(launchMarkPath) != 0 && errno != ENOENT {
            throw StateStoreError(path: launchMarkPath, reason: String(cString: strerror(errno)))
        }
    }
}

import Foundation
import Wayfinder
import WayfinderLua

/// The directory an app's bundles are installed in (docs/updates.md, "The updates directory"):
/// `bundles/<version>.wfb`, each the bundle's bytes as they were signed; `bad/<version>`, the
/// reason a bundle was marked bad; `launch.json`, the launch of a bundle under way. Every file
/// is written to a temporary file that is flushed, then renamed over its name, and the directory
/// flushed: a process killed at any moment leaves each file as it was or as it became.
public struct UpdatesDirectory: Sendable {
    /// The directory: `bundles/` holds the installed bundles, `bad/` the reasons bundles were
    /// marked bad, and `launch.json` the launch of a bundle not yet shown to reach its first screen.
    public let path: String
    var bundles: String { path + "/bundles" }
    var bad: String { path + "/bad" }
    var launchRecord: String { path + "/launch.json" }
    /// Bundles not marked bad kept when another is installed: the one running and the ones it
    /// may go back to.
    public static let kept = 3
    static let temporaryPrefix = ".writing-"

    /// The updates directory at `path` (made by the first install).
    public init(path: String) {
        self.path = path
    }

    /// The installed versions, newest first (bad ones included).
    func installed() throws(BundleRefusal) -> [Int] {
        guard FileManager.default.fileExists(atPath: bundles) else { return [] }
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: bundles) } catch {
            throw BundleRefusal(.storage, "cannot read \(bundles): \(error.localizedDescription)")
        }
        return names.compactMap { name -> Int? in
            guard name.hasSuffix(".wfb"), let version = Int(name.dropLast(4)), version >= 1, "\(version).wfb" == name else { return nil }
            return version
        }.sorted(by: >)
    }

    func bundlePath(_ version: Int) -> String { bundles + "/\(version).wfb" }

    /// The bytes of the installed bundle `version`.
    func bytes(of version: Int) throws(BundleRefusal) -> [UInt8] {
        do { return try FileAccess.readFile(atPath: bundlePath(version), limit: BundleLimits.archiveBytes, followingLinks: false) } catch {
            throw BundleRefusal(.storage, "cannot read \(bundlePath(version)): \(error)")
        }
    }

    /// Why bundle `version` was marked bad; nil when it was not.
    public func badReason(_ version: Int) -> String? {
        guard let bytes = try? FileAccess.readFile(atPath: bad + "/\(version)", limit: 64 << 10, followingLinks: false) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func markBad(_ version: Int, because reason: String) throws(BundleRefusal) {
        try write(Array(reason.utf8), to: bad + "/\(version)")
    }

    /// Installs `bytes` as bundle `version` (the newest), then removes the older bundles marked
    /// bad (never run again; their marks stay) and the good ones past the newest ``kept``.
    func install(_ bytes: [UInt8], version: Int) throws(BundleRefusal) {
        try write(bytes, to: bundlePath(version))
        var good = 1
        for old in try installed() where old < version {
            if badReason(old) != nil {
                unlink(bundlePath(old))
                continue
            }
            good += 1
            if good > Self.kept { unlink(bundlePath(old)) }
        }
    }

    /// The launch of a bundle under way, or that ended before its first screen.
    struct LaunchRecord: Equatable {
        var version: Int
        var launches: Int
        var error: String?
    }

    func launch() -> LaunchRecord? {
        guard let bytes = try? FileAccess.readFile(atPath: launchRecord, limit: 64 << 10, followingLinks: false),
              case .map(let fields)? = try? JSON.decode(bytes: bytes),
              case .int(let version)? = fields["version"], case .int(let launches)? = fields["launches"],
              let version = Int(exactly: version), let launches = Int(exactly: launches) else { return nil }
        var error: String?
        if case .string(let text)? = fields["error"] { error = text }
        return LaunchRecord(version: version, launches: launches, error: error)
    }

    func writeLaunch(_ record: LaunchRecord?) throws(BundleRefusal) {
        guard let record else {
            if unlink(launchRecord) != 0 && errno != ENOENT {
                throw BundleRefusal(.storage, "cannot remove \(launchRecord): \(String(cString: strerror(errno)))")
            }
            return
        }
        var fields: Value = .map(["version": .int(Int64(record.version)), "launches": .int(Int64(record.launches))])
        if let error = record.error, case .map(var map) = fields {
            map["error"] = .string(error)
            fields = .map(map)
        }
        try write(Array(((try? JSON.encode(fields)) ?? "{}").utf8), to: launchRecord)
    }

    /// Holds the directory's lock while `body` runs: one install at a time. Temporary files
    /// found in `bundles/` under the lock are an install's that ended midway, and go (launches
    /// write beside `launch.json` and in `bad/` without the lock, so those are left alone).
    func locked<T>(_ body: () throws(BundleRefusal) -> T) throws(BundleRefusal) -> T {
        try makeDirectory(path)
        let lock = open(path + "/.lock", O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard lock >= 0 else { throw BundleRefusal(.storage, "cannot open \(path)/.lock: \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw BundleRefusal(.storage, "cannot lock \(path)/.lock: \(String(cString: strerror(errno)))") }
        for name in (try? FileManager.default.contentsOfDirectory(atPath: bundles)) ?? [] where name.hasPrefix(Self.temporaryPrefix) {
            unlink(bundles + "/" + name)
        }
        return try body()
    }

    private func makeDirectory(_ directory: String) throws(BundleRefusal) {
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw BundleRefusal(.storage, "cannot make \(directory): \(error.localizedDescription)")
        }
    }

    /// Replaces `target` with `bytes` all at once, flushed to the disk with its directory.
    private func write(_ bytes: [UInt8], to target: String) throws(BundleRefusal) {
        let directory = (target as NSString).deletingLastPathComponent
        try makeDirectory(directory)
        let temporary: String
        do { temporary = try TemporaryFile.make(holding: Data(bytes), directory: directory, prefix: Self.temporaryPrefix) } catch {
            throw BundleRefusal(.storage, "cannot write beside \(target): \(error.reason)")
        }
        guard rename(temporary, target) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw BundleRefusal(.storage, "cannot rename into \(target): \(reason)")
        }
        let handle = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if handle >= 0 {
            fsync(handle)
            close(handle)
        }
    }
}

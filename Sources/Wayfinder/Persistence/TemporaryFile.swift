import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The temporary file a write of the state (or of its launch mark, or of a copy kept aside) fills
/// before it replaces the file by rename: `<prefix><pid>-<start time>-<random>`, beside its
/// target. It is always a new file: made with `O_CREAT | O_EXCL | O_NOFOLLOW`, so whatever already
/// has its name (a link, a FIFO, a file) is never opened, followed or waited on; another name is
/// drawn instead.
package enum TemporaryFile {
    /// Names drawn before a write gives up: each taken one is a 1 in 2^64 coincidence or a name
    /// someone planted.
    static let attempts = 8

    /// Writes `data` to a new temporary file in `directory` (flushed to the disk when `sync`);
    /// its path, for the caller to rename. Nothing is left behind when it throws.
    package static func make(holding data: Data, directory: String, prefix: String, sync: Bool = true) throws(StateStoreError) -> String {
        let me = ProcessIdentity.current
        var taken = 0
        while true {
            let path = (directory.isEmpty ? "" : directory + "/") + prefix + "\(me.pid)-\(me.started ?? 0)-"
                + String(UInt64.random(in: .min ... .max), radix: 16)
            let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            if file < 0 {
                guard errno == EEXIST, taken + 1 < attempts else { throw FileStateStore.failure("open \(path)") }
                taken += 1
                continue
            }
            defer { close(file) }
            do throws(StateStoreError) {
                try fill(file, with: data)
                if sync { guard fsync(file) == 0 else { throw FileStateStore.failure("fsync") } }
            } catch {
                unlink(path)
                throw error
            }
            return path
        }
    }

    private static func fill(_ file: Int32, with data: Data) throws(StateStoreError) {
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
        guard written else { throw FileStateStore.failure("write") }
    }

    /// The process that made a temporary file, read from what follows the prefix in its name:
    /// `<pid>-<start time>-<random>`, or `<pid>` alone as older writers named it. Nil when the
    /// name is not one of ours.
    static func writer(named suffix: Substring) -> ProcessIdentity? {
        let parts = suffix.split(separator: "-", omittingEmptySubsequences: false)
        guard let pid = Int32(parts[0]), pid > 0 else { return nil }
        if parts.count == 1 { return ProcessIdentity(pid: pid, started: nil) }
        guard parts.count == 3, let started = Int64(parts[1]), started >= 0, UInt64(parts[2], radix: 16) != nil else { return nil }
        return ProcessIdentity(pid: pid, started: started == 0 ? nil : started)
    }
}

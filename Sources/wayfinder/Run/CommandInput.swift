import Foundation
import WayfinderLua
#if canImport(Glibc)
import Glibc
#endif

/// What `wayfinder run` waits for: a command line typed (or piped) on standard input, or, with
/// `--watch`, a change to the app's files. Standard input is read as it comes (not through
/// stdio's buffer) so both can be waited for at once with `poll(2)`.
final class CommandInput {
    enum Event: Equatable {
        case line(String)
        case filesChanged([String])
        case end
    }

    private let watcher: DirectoryWatcher?
    private var pending: [UInt8] = []
    private var ended = false

    init(watcher: DirectoryWatcher?) {
        self.watcher = watcher
    }

    func next() -> Event {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return .line(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            }
            if ended {
                guard pending.isEmpty else {
                    defer { pending = [] }
                    return .line(String(decoding: pending, as: UTF8.self))
                }
                return .end
            }
            if let watcher {
                let changed = watcher.changes()
                if !changed.isEmpty { return .filesChanged(changed) }
            }
            waitForInput()
        }
    }

    /// Blocks until standard input has something (or ends), or the watcher may have news.
    private func waitForInput() {
        var descriptors = [pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)]
        if let fd = watcher?.fileDescriptor { descriptors.append(pollfd(fd: fd, events: Int16(POLLIN), revents: 0)) }
        let ready = poll(&descriptors, nfds_t(descriptors.count), watcher?.pollTimeout ?? -1)
        if ready < 0 && errno != EINTR {
            ended = true
            return
        }
        guard descriptors[0].revents != 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count > 0 {
            pending += buffer[..<count]
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            ended = true
        }
    }
}

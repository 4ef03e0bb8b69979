import Foundation
import Wayfinder
import WayfinderLua

/// Live reload for `wayfinder serve`: a thread of its own waits on the app's directory
/// (`DirectoryWatcher`: inotify, else polling) and hands each burst of saved `.lua` files to the
/// session, waiting for that reload to finish before it looks again, so reloads never overlap
/// and the last save is always the one that counts.
public final class AppWatcher: Sendable {
    public let directory: String
    public let mechanism: DirectoryWatcher.Mechanism
    private let stopped = Shared(false)

    /// A value the watching thread and its owner both reach.
    private final class Shared<Value: Sendable>: Sendable {
        private let value: Locked<Value>
        init(_ value: Value) { self.value = Locked(value) }
        var current: Value { value.withLock { $0 } }
        func set(_ new: Value) { value.withLock { $0 = new } }
    }

    /// Starts watching the directory of `app` (a file's own directory) for `session`. Returns
    /// once the watch is in place, so a save made from then on is seen.
    public init(app: String, session: ServeSession, polling: Bool = false) {
        var isDirectory: ObjCBool = false
        let url = URL(fileURLWithPath: app).standardizedFileURL
        let exists = FileManager.default.fileExists(atPath: app, isDirectory: &isDirectory)
        let directory = exists && isDirectory.boolValue ? url.path : url.deletingLastPathComponent().path
        self.directory = directory
        let ready = DispatchSemaphore(value: 0)
        let found = Shared(DirectoryWatcher.Mechanism.polling)
        let stopped = stopped
        let thread = Thread {
            let watcher = DirectoryWatcher(directory: directory, polling: polling)
            found.set(watcher.mechanism)
            ready.signal()
            while !stopped.current {
                let files = watcher.wait(timeout: .milliseconds(250))
                guard !files.isEmpty, !stopped.current else { continue }
                let done = DispatchSemaphore(value: 0)
                Task {
                    await session.reload(because: files)
                    done.signal()
                }
                done.wait()
            }
        }
        thread.name = "wayfinder serve: watch \(directory)"
        thread.start()
        ready.wait()
        mechanism = found.current
    }

    /// Stops looking (within a quarter of a second); a reload under way finishes.
    public func stop() {
        stopped.set(true)
    }
}

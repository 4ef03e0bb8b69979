import FlyingFox
import Wayfinder

/// The messages on their way to one page, bounded in bytes: a message counts from the moment it
/// is queued until the server library has taken the last frame of it to write (`written`), so
/// what the library holds in its own buffers for a page that does not read counts too. Past
/// `byteLimit` bytes on their way, the queue ends instead of growing (what waited is dropped, and
/// the page must be let go: `ClientHub`). A message always fits when nothing is on its way,
/// whatever its size, so a page that reads gets every message.
final class PageQueue: Sendable {
    let byteLimit: Int
    private let state = Locked(State())

    private struct State {
        var messages: [String] = []
        var bytes = 0
        var finished = false
        /// The library waiting for the next message, while it does.
        var waiter: CheckedContinuation<WSMessage?, Never>?
    }

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    /// The bytes on their way: queued, or taken and not yet written.
    var bytes: Int { state.withLock { $0.bytes } }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Queues `text`; false when it does not fit, and the queue has ended (a message to a
    /// queue that has ended is dropped, and true).
    func push(_ text: String) -> Bool {
        let size = text.utf8.count
        let fits = state.withLock { current -> Bool in
            guard !current.finished else { return true }
            guard current.bytes == 0 || current.bytes + size <= byteLimit else { return false }
            current.bytes += size
            current.messages.append(text)
            return true
        }
        guard fits else {
            finish()
            return false
        }
        handOn()
        return true
    }

    /// Gives the first message to the library if it is waiting for one.
    private func handOn() {
        let (waiter, text) = state.withLock { current -> (CheckedContinuation<WSMessage?, Never>?, String?) in
            guard let waiter = current.waiter, !current.messages.isEmpty else { return (nil, nil) }
            current.waiter = nil
            return (waiter, current.messages.removeFirst())
        }
        if let waiter, let text { waiter.resume(returning: .text(text)) }
    }

    /// Ends the queue: what waits is dropped, and the stream ends.
    func finish() {
        let waiter = state.withLock { current in
            current.finished = true
            current.messages = []
            current.bytes = 0
            defer { current.waiter = nil }
            return current.waiter
        }
        waiter?.resume(returning: nil)
    }

    /// The next message; nil once the queue has ended (or the task taking it is cancelled).
    func next() async -> WSMessage? {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (waiting: CheckedContinuation<WSMessage?, Never>) in
                let ready = state.withLock { current -> WSMessage?? in
                    if !current.messages.isEmpty {
                        return .some(.text(current.messages.removeFirst()))
                    }
                    if current.finished { return .some(nil) }
                    current.waiter = waiting
                    return nil
                }
                if let ready { waiting.resume(returning: ready) }
            }
        } onCancel: {
            finish()
        }
    }

    /// `count` bytes of the messages taken were written out.
    func written(_ count: Int) {
        state.withLock { current in
            if !current.finished { current.bytes = max(0, current.bytes - count) }
        }
    }

    /// The messages as the server library takes them.
    var stream: AsyncStream<WSMessage> {
        AsyncStream { await self.next() }
    }
}

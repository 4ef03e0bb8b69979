import FlyingFox
import Synchronization

/// The messages waiting to go out to one page, bounded in bytes: the server library takes them
/// one by one as it writes them, and when the page does not read, they wait here. Past `byteLimit`
/// bytes waiting, the queue ends instead of growing (what waited is dropped, and the page must be
/// let go: `ClientHub`). A message always fits in an empty queue, whatever its size, so a page
/// that reads gets every message.
final class PageQueue: Sendable {
    let byteLimit: Int
    private let state = Mutex(State())

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

    /// The bytes waiting.
    var bytes: Int { state.withLock { $0.bytes } }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Queues `text`; false when it does not fit, and the queue has ended (a message to a
    /// queue that has ended is dropped, and true).
    func push(_ text: String) -> Bool {
        let (waiter, fits) = state.withLock { current -> (CheckedContinuation<WSMessage?, Never>?, Bool) in
            if current.finished { return (nil, true) }
            if let waiter = current.waiter {
                current.waiter = nil
                return (waiter, true)
            }
            let size = text.utf8.count
            guard current.messages.isEmpty || current.bytes + size <= byteLimit else {
                current.finished = true
                current.messages = []
                current.bytes = 0
                return (nil, false)
            }
            current.messages.append(text)
            current.bytes += size
            return (nil, true)
        }
        waiter?.resume(returning: .text(text))
        return fits
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
                        let text = current.messages.removeFirst()
                        current.bytes -= text.utf8.count
                        return .some(.text(text))
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

    /// The messages as the server library takes them.
    var stream: AsyncStream<WSMessage> {
        AsyncStream { await self.next() }
    }
}

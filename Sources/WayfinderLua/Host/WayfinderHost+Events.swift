import Foundation
import Wayfinder

/// The host's events as an `AsyncStream`, for async code and SwiftUI (`.task { for await ... }`):
/// the same events observers hear, in the same order, each stream ending when the host is
/// released.
extension WayfinderHost {
    /// A new stream of every change committed from now on, as observers hear them (``observe(_:)``,
    /// docs/events.md): across reloads and relaunches, until the host is released, when the
    /// stream finishes. Each access makes a stream of its own; one whose consumer stopped (its
    /// task cancelled, its loop left) is forgotten. Events are buffered until read, so a consumer
    /// on another actor hears every one, in order, after the call that caused it.
    public var events: AsyncStream<NavigationEvent> {
        exclusivelyOrStop("make a stream of events") { addingStream() }
    }

    private func addingStream() -> AsyncStream<NavigationEvent> {
        pruneStreams()
        let (stream, continuation) = AsyncStream.makeStream(of: NavigationEvent.self, bufferingPolicy: .unbounded)
        let token = adding { event in _ = continuation.yield(event) }
        let ended = StreamEnd()
        // Called on whichever thread stops the consumer: it only marks the stream, and the host
        // forgets its observer on its own thread (the next stream it makes, or when it goes).
        continuation.onTermination = { _ in ended.mark() }
        streams.append(EventStream(observer: token, continuation: continuation, ended: ended))
        return stream
    }

    /// Forgets the observers of streams whose consumers stopped.
    private func pruneStreams() {
        for stream in streams where stream.ended.isMarked { _ = removing(stream.observer) }
        streams.removeAll { $0.ended.isMarked }
    }

    /// Ends every stream: their consumers' loops end after the events already sent.
    func finishStreams() {
        for stream in streams { stream.continuation.finish() }
        streams.removeAll()
    }

    /// One stream handed out: the observer that feeds it, and how to end it.
    struct EventStream {
        let observer: ObserverToken
        let continuation: AsyncStream<NavigationEvent>.Continuation
        let ended: StreamEnd
    }
}

/// Whether a stream's consumer stopped; set from any thread, read on the host's.
final class StreamEnd: @unchecked Sendable {
    private let lock = NSLock()
    private var marked = false

    func mark() {
        lock.withLock { marked = true }
    }

    var isMarked: Bool { lock.withLock { marked } }
}

import FlyingFox

/// One page's WebSocket as the server library runs it: its frames made into messages and back by
/// the library (`MessageFrameWSHandler`, with `ClientChannel`), and each frame of what the session
/// sends counted as written when the library takes it to write. The library turns every message
/// into frames as soon as it is queued and holds them until the socket takes them, so the page's
/// queue (`PageQueue`) counts a message until then: a page that does not read fills its queue,
/// not the library's buffers.
struct PageSocket: WSHandler {
    let session: ServeSession

    func makeFrames(for client: AsyncThrowingStream<WSFrame, any Error>) async throws -> AsyncStream<WSFrame> {
        let queue = session.hub.makeQueue()
        let frames = try await MessageFrameWSHandler(handler: ClientChannel(session: session, queue: queue)).makeFrames(for: client)
        let source = FrameSource(frames)
        return AsyncStream {
            guard let frame = await source.next() else { return nil }
            if frame.opcode == .text || frame.opcode == .continuation { queue.written(frame.payload.count) }
            return frame
        }
    }
}

/// The library's frames, taken one at a time by the one task that writes them to the socket.
private final class FrameSource: @unchecked Sendable {
    private var iterator: AsyncStream<WSFrame>.Iterator

    init(_ frames: AsyncStream<WSFrame>) {
        iterator = frames.makeAsyncIterator()
    }

    func next() async -> WSFrame? {
        await iterator.next()
    }
}

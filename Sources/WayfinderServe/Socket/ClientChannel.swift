import FlyingFox

/// One page's WebSocket: what it sends goes to the session as commands; what the session
/// pushes (the whole state at once, then every change, and the answers meant for this page)
/// goes out on the stream this returns.
struct ClientChannel: WSMessageHandler {
    let session: ServeSession

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let (outgoing, continuation) = AsyncStream<WSMessage>.makeStream()
        let id = await session.attach(continuation)
        let session = session
        Task {
            for await message in client {
                switch message {
                case .text(let text):
                    await session.receive(text, from: id)
                case .data:
                    await session.refuse("binary messages are not understood: send JSON text", to: id)
                case .close:
                    break
                }
            }
            await session.detach(id)
        }
        return outgoing
    }
}

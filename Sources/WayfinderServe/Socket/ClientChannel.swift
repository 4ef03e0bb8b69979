import FlyingFox

/// One page's WebSocket: what it sends goes to the session as commands; what the session
/// pushes (the whole state at once, then every change, and the answers meant for this page)
/// goes out through the page's queue (`PageQueue`), taken as the server writes it (`PageSocket`).
struct ClientChannel: WSMessageHandler {
    let session: ServeSession
    let queue: PageQueue

    func makeMessages(for client: AsyncStream<WSMessage>) async throws -> AsyncStream<WSMessage> {
        let id = await session.attach(queue)
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
        return queue.stream
    }
}

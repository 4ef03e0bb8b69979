import FlyingFox
import Foundation
import Testing
import Wayfinder
@testable import WayfinderServe

/// The server on a real loopback socket, as a browser (or anything else on the machine) meets it.
/// The plain-socket client blocks, so each exchange runs on a thread of its own, never on the
/// threads the server's tasks need.
@Suite("serve over sockets")
struct ServeServerTests {
    struct Address: Sendable {
        let port: Int
        let token: String
        var host: String { "127.0.0.1:\(port)" }

        func handshake(_ client: RawClient, token: String? = nil, origin: String? = nil) throws {
            let origin = origin ?? "http://\(host)"
            try client.write("GET /ws?token=\(token ?? self.token) HTTP/1.1\r\nHost: \(host)\r\nOrigin: \(origin)\r\n"
                + "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        }
    }

    /// Serves the test app while `body` runs, stopped afterwards whatever happened.
    func serving<T>(_ body: (Address) async throws -> T) async throws -> T {
        try await WayfinderServeTests.serving { address, _ in try await body(address) }
    }

    @Test func thePageIsServedAndGarbageNeitherAnsweredNorFatal() async throws {
        let (page, garbageClosed, emptyClosed, after) = try await serving { address in
            try await blocking {
                let client = try RawClient(port: address.port)
                try client.write("GET /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n")
                let page = try client.response()
                let garbage = try RawClient(port: address.port)
                try garbage.write([0x16, 0x03, 0x01, 0x00, 0xFF] + Array("\r\n\r\n".utf8))
                let garbageClosed = try garbage.closedByServer()
                let empty = try RawClient(port: address.port)
                try empty.write("\r\n\r\n")
                let emptyClosed = try empty.closedByServer()
                let later = try RawClient(port: address.port)
                try later.write("GET /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n")
                return (page, garbageClosed, emptyClosed, try later.response()?.status)
            }
        }
        #expect(page?.status == 200)
        #expect(page?.body.contains("<title>Wayfinder</title>") == true)
        #expect(garbageClosed)
        #expect(emptyClosed)
        #expect(after == 200)
    }

    @Test func aWebSocketWithoutTheTokenOrFromAnotherSiteIsRefused() async throws {
        let statuses = try await serving { address in
            try await blocking {
                let noToken = try RawClient(port: address.port)
                try address.handshake(noToken, token: "")
                let foreign = try RawClient(port: address.port)
                try address.handshake(foreign, origin: "http://attacker.example:\(address.port)")
                let rebinding = try RawClient(port: address.port)
                try rebinding.write("GET /ws?token=\(address.token) HTTP/1.1\r\nHost: attacker.example:\(address.port)\r\n\r\n")
                return [try noToken.response()?.status, try foreign.response()?.status, try rebinding.response()?.status]
            }
        }
        #expect(statuses == [401, 403, 403])
    }

    @Test func aPageDrivesTheAppOverItsWebSocket() async throws {
        let (switched, messages, closing) = try await serving { address in
            try await blocking {
                let client = try RawClient(port: address.port)
                try address.handshake(client)
                let switched = try client.response()
                var messages = [try client.textMessage()]
                for text in [#"{"type":"open","url":"tt://page/ax"}"#, "{not json", #"{"type":"open","url":"tt://broken/1"}"#, #"{"type":"back"}"#] {
                    try client.sendText(text)
                    messages.append(try client.textMessage())
                }
                try client.sendFrame(opcode: 2, [1, 2, 3])
                messages.append(try client.textMessage())
                try client.sendFrame(opcode: 8, [0x03, 0xE8])
                return (switched, messages, try client.message().opcode)
            }
        }
        #expect(switched?.status == 101)
        #expect(switched?.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        let decoded = try messages.map { try JSON.decode($0) }
        try #require(decoded.count == 6)
        #expect(decoded[0]["type"] == "state")
        #expect(decoded[0][path: "screen", "visible"] == "tt://page/a")
        #expect(decoded[1][path: "screen", "visible"] == "tt://page/ax")
        #expect(decoded[1].events.first?["kind"] == "open")
        #expect(decoded[2]["type"] == "refused")
        #expect(decoded[3].events.first?["outcome"] == "failed")
        #expect(decoded[4][path: "screen", "visible"] == "tt://page/a")
        #expect(decoded[5]["reason"]?.stringValue?.contains("binary messages are not understood") == true)
        #expect(closing == 8)
    }
    /// A page's WebSocket after its handshake and the state it is sent first.
    func connectedPage(_ address: Address) throws -> RawClient {
        let client = try RawClient(port: address.port)
        try address.handshake(client)
        guard try client.response()?.status == 101 else { throw RawClient.Failure(description: "no 101") }
        _ = try client.textMessage()
        return client
    }

    @Test func aFrameAnnouncingAGigabyteEndsTheConnectionAtItsHeaderAndOthersAreServed() async throws {
        let (closed, other) = try await serving { address in
            try await blocking {
                let client = try connectedPage(address)
                // The header, and a little of the payload: the rest never comes, and is never waited for.
                try client.write(RawClient.frameHeader(opcode: 1, length: 1 << 30) + Array(repeating: 0x20, count: 100))
                let closed = try client.closedByServer()
                let other = try connectedPage(address)
                try other.sendText(#"{"type":"open","url":"tt://page/ax"}"#)
                return (closed, try other.textMessage())
            }
        }
        #expect(closed)
        #expect(try JSON.decode(other)[path: "screen", "visible"] == "tt://page/ax")
    }

    @Test func aMessageIsLimitedAcrossItsFramesAndAtTheLimitItPasses() async throws {
        let limit = ClientCommand.maximumLength
        let (atLimit, afterPing, closed) = try await serving { address in
            try await blocking {
                let client = try connectedPage(address)
                // Exactly the limit, in two frames with a ping between: it reaches the session.
                try client.sendFrame(fin: false, opcode: 1, Array(repeating: 0x20, count: limit - 10))
                try client.sendFrame(opcode: 9, [1, 2])
                try client.sendFrame(fin: true, opcode: 0, Array(repeating: 0x20, count: 10))
                let atLimit = try client.textMessage()
                try client.sendText(#"{"type":"back"}"#)
                let afterPing = try client.textMessage()
                // One byte more, announced by a continuation's header alone: the connection ends.
                try client.sendFrame(fin: false, opcode: 1, Array(repeating: 0x20, count: limit - 10))
                try client.write(RawClient.frameHeader(fin: true, opcode: 0, length: 11))
                return (atLimit, afterPing, try client.closedByServer())
            }
        }
        #expect(try JSON.decode(atLimit)["reason"]?.stringValue?.hasPrefix("the message is not JSON") == true, "\(atLimit)")
        #expect(try JSON.decode(afterPing).events.first?["kind"] == "back")
        #expect(closed)
    }

    @Test func aHeadPastTheLimitIsAnswered431AndABodyWithoutLengthIs411() async throws {
        let (long, chunked, posted, after) = try await serving { address in
            try await blocking {
                let long = try RawClient(port: address.port)
                // One line without end, a byte past the limit.
                try long.write("GET /" + String(repeating: "a", count: RequestHead.limit - 4))
                let chunked = try RawClient(port: address.port)
                try chunked.write("POST /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\nTransfer-Encoding: chunked\r\n\r\n")
                let posted = try RawClient(port: address.port)
                try posted.write("POST /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\nContent-Length: 5\r\n\r\nhello")
                let later = try RawClient(port: address.port)
                try later.write("GET /?token=\(address.token) HTTP/1.1\r\nHost: \(address.host)\r\n\r\n")
                return (try long.response(), try chunked.response(), try posted.response(), try later.response())
            }
        }
        #expect(long?.status == 431)
        #expect(long?.body.contains("longer than \(RequestHead.limit) bytes") == true)
        #expect(long?.headers["connection"] == "close")
        #expect(chunked?.status == 411)
        // A body with its length reaches the server, which answers as for any request.
        #expect(posted?.status == 405)
        #expect(after?.status == 200)
        #expect(after?.headers["connection"] == "close")
    }
}


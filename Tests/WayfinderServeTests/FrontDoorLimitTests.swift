import Foundation
import Testing
@testable import WayfinderServe

/// What the front door reads of a connection before the HTTP server does: where a request's
/// head ends and how long its body is, and the WebSocket frames' headers, each refused as soon
/// as it announces more than a message may carry.
@Suite("front door limits")
struct FrontDoorLimitTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func aHeadEndsAtItsEmptyLineWithItsBodyLength() {
        let request = bytes("GET /?token=t HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\nrest")
        #expect(RequestHead.read(request) == .head(RequestHead(bytes: Array(request.dropLast(4)), bodyLength: 0), length: request.count - 4))
        let bare = bytes("GET / HTTP/1.1\nHost: x:1\n\n")
        #expect(RequestHead.read(bare) == .head(RequestHead(bytes: bare, bodyLength: 0), length: bare.count))
        let posted = bytes("POST / HTTP/1.1\r\nhost: x:1\r\ncontent-LENGTH :  12 \r\n\r\n")
        #expect(RequestHead.read(posted) == .head(RequestHead(bytes: posted, bodyLength: 12), length: posted.count))
        // Split anywhere, it is not complete until its empty line.
        let whole = bytes("GET / HTTP/1.1\r\nHost: x:1\r\n\r\n")
        for end in 0..<whole.count {
            #expect(RequestHead.read(Array(whole[..<end])) == .incomplete, "\(end)")
        }
    }

    @Test func whatCannotBeAHeadIsNotHTTP() {
        for text in ["\r\n\r\n", "\n", "GET / HTTP/1.1\rHost: x\r\n\r\n", "GET /\u{1} HTTP/1.1\r\n\r\n", "GET /é HTTP/1.1\r\n\r\n",
                     "GET / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: -1\r\n\r\n",
                     "GET / HTTP/1.1\r\nContent-Length: 1e3\r\n\r\n", "GET / HTTP/1.1\r\nContent-Length: 99999999999999999999\r\n\r\n",
                     "GET / HTTP/1.1\r\nContent-Length:\r\n\r\n"] {
            #expect(RequestHead.read(bytes(text)) == .notHTTP, "\(text.debugDescription)")
        }
        #expect(RequestHead.read([0x16, 0x03, 0x01, 0x00, 0xFF]) == .notHTTP)
    }

    @Test func aHeadPastTheLimitIsTooLongAndAChunkedBodyUnmeasured() {
        let line = bytes("GET /" + String(repeating: "a", count: RequestHead.limit))
        #expect(RequestHead.read(line) == .tooLong)
        #expect(RequestHead.read(Array(line[..<RequestHead.limit])) == .incomplete)
        let headers = bytes("GET / HTTP/1.1\r\n" + String(repeating: "X-A: b\r\n", count: RequestHead.limit / 8) + "\r\n")
        #expect(RequestHead.read(headers) == .tooLong)
        #expect(RequestHead.read(bytes("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n")) == .unmeasuredBody)
        #expect(RequestHead.read(bytes("POST / HTTP/1.1\r\ntransfer-encoding : gzip, chunked\r\nContent-Length: 3\r\n\r\n")) == .unmeasuredBody)
    }

    // MARK: Frames

    /// A client's frame: header (masked) and payload.
    func frame(fin: Bool = true, opcode: UInt8, length: Int, payload: Bool = true) -> [UInt8] {
        let header = RawClient.frameHeader(fin: fin, opcode: opcode, length: UInt64(length))
        return payload ? header + Array(repeating: 0x41, count: length) : header
    }

    @Test func framesWithinTheLimitPassAsTheyCameInAnyPieces() throws {
        // A message, one in three frames with a ping between, and one at the limit.
        let stream = frame(opcode: 1, length: 5) + frame(fin: false, opcode: 1, length: 200) + frame(opcode: 9, length: 3)
            + frame(fin: false, opcode: 0, length: 300) + frame(opcode: 0, length: 100) + frame(opcode: 2, length: 65_536)
        var limit = FrameLimit(limit: 65_536)
        #expect(try limit.admit(stream) == stream)
        // Byte by byte, the same bytes pass.
        var byByte = FrameLimit(limit: 65_536)
        var passed: [UInt8] = []
        for byte in stream { passed += try byByte.admit([byte]) }
        #expect(passed == stream)
        // An unmasked frame's header (no mask key) is read too.
        var unmasked = FrameLimit(limit: 10)
        #expect(try unmasked.admit([0x81, 0x03, 1, 2, 3, 0x81, 0x00]) == [0x81, 0x03, 1, 2, 3, 0x81, 0x00])
    }

    @Test func aFrameAnnouncingTooMuchIsRefusedAtItsHeaderWithNothingOfItPassed() throws {
        for length in [65_537, 1 << 30, Int(Int64.max)] {
            var limit = FrameLimit(limit: 65_536)
            let before = frame(opcode: 1, length: 3)
            let header = frame(opcode: 1, length: length, payload: false)
            var passed: [UInt8] = []
            #expect(throws: FrameLimit.Refusal.self) {
                passed += try limit.admit(before)
                // The header alone is enough to refuse it.
                passed += try limit.admit(header)
            }
            #expect(passed == before)
        }
        // A 64-bit length with its top bit set is no exception.
        var limit = FrameLimit(limit: 65_536)
        #expect(throws: FrameLimit.Refusal.self) { try limit.admit([0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0]) }
        // Until its header is complete, nothing is decided.
        var partial = FrameLimit(limit: 65_536)
        #expect(try partial.admit(frame(opcode: 1, length: 1 << 30, payload: false).prefix(9)) == [])
    }

    @Test func aMessageIsLimitedAcrossItsFramesButNotItsControlFrames() throws {
        var limit = FrameLimit(limit: 1_000)
        _ = try limit.admit(frame(fin: false, opcode: 1, length: 600))
        _ = try limit.admit(frame(opcode: 9, length: 100))
        _ = try limit.admit(frame(fin: false, opcode: 0, length: 400))
        let refusal = #expect(throws: FrameLimit.Refusal.self) { try limit.admit(frame(opcode: 0, length: 1, payload: false)) }
        #expect(refusal?.description.contains("more than 1000 bytes") == true)
        // A finished message does not count towards the next.
        var next = FrameLimit(limit: 1_000)
        _ = try next.admit(frame(fin: false, opcode: 1, length: 600) + frame(opcode: 0, length: 400))
        _ = try next.admit(frame(opcode: 1, length: 1_000))
        _ = try next.admit(frame(fin: false, opcode: 2, length: 1_000) + frame(opcode: 0, length: 0))
    }
}

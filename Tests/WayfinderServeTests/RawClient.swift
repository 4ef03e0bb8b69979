import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A client on a plain socket, for the server's tests: it writes exactly the bytes given (a
/// request a browser would never send included) and reads what comes back. Reads wait at most
/// 30 seconds, an outer guard against a server that never answers.
final class RawClient {
    private let descriptor: Int32
    private var buffered: [UInt8] = []

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw Failure(description: "connect: \(errno)")
        }
    }

    deinit { close(descriptor) }

    func write(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw Failure(description: "send: \(errno)") }
            sent += count
        }
    }

    func write(_ text: String) throws { try write(Array(text.utf8)) }

    /// Reads more bytes; false at the end of the stream.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        // A reset is the server closing with bytes of ours left unread.
        if count < 0 && errno == ECONNRESET { return false }
        if count < 0 { throw Failure(description: "recv: \(errno) (no answer within 30 s?)") }
        if count == 0 { return false }
        buffered += chunk[..<count]
        return true
    }

    private func take(_ count: Int) throws -> [UInt8] {
        while buffered.count < count {
            guard try fill() else { throw Failure(description: "the connection closed") }
        }
        defer { buffered.removeFirst(count) }
        return Array(buffered[..<count])
    }

    /// An HTTP response's status line and headers (lowercased names), and its body when it
    /// has a Content-Length. Nil when the server closed the connection without an answer.
    func response() throws -> (status: Int, headers: [String: String], body: String)? {
        var end: Int?
        while true {
            if let found = findEnd() { end = found; break }
            guard try fill() else { return nil }
        }
        let head = String(decoding: try take(end! + 4), as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let status = Int(lines[0].split(separator: " ")[1]) ?? 0
        var headers = [String: String]()
        for line in lines.dropFirst() where line.contains(":") {
            let parts = line.split(separator: ":", maxSplits: 1)
            headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        return (status, headers, String(decoding: try take(length), as: UTF8.self))
    }

    private func findEnd() -> Int? {
        guard buffered.count >= 4 else { return nil }
        for index in 0...(buffered.count - 4) where buffered[index] == 13 && buffered[index + 1] == 10
            && buffered[index + 2] == 13 && buffered[index + 3] == 10 { return index }
        return nil
    }

    /// Whether the server closed the connection (reading gives the end of the stream).
    func closedByServer() throws -> Bool {
        while true {
            buffered = []
            guard try fill() else { return true }
        }
    }

    // MARK: WebSocket

    static let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]

    /// A frame's header from the client, announcing `length` payload bytes (the 64-bit form
    /// past 65535), masked as RFC 6455 requires.
    static func frameHeader(fin: Bool = true, opcode: UInt8, length: UInt64) -> [UInt8] {
        var header: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        if length < 126 {
            header.append(0x80 | UInt8(length))
        } else if length <= 0xFFFF {
            header += [0x80 | 126, UInt8(length >> 8), UInt8(length & 0xFF)]
        } else {
            header.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { header.append(UInt8((length >> UInt64(shift)) & 0xFF)) }
        }
        return header + mask
    }

    /// A frame from the client: masked, as RFC 6455 requires.
    func sendFrame(fin: Bool = true, opcode: UInt8, _ payload: [UInt8]) throws {
        let frame = Self.frameHeader(fin: fin, opcode: opcode, length: UInt64(payload.count))
            + payload.enumerated().map { $0.element ^ Self.mask[$0.offset % 4] }
        try write(frame)
    }

    func sendText(_ text: String) throws { try sendFrame(opcode: 1, Array(text.utf8)) }

    /// The next whole message from the server (its fragments joined): opcode and payload.
    func message() throws -> (opcode: UInt8, payload: [UInt8]) {
        var opcode: UInt8?
        var payload: [UInt8] = []
        while true {
            let head = try take(2)
            let frameOpcode = head[0] & 0x0F
            var length = Int(head[1] & 0x7F)
            if length == 126 {
                let bytes = try take(2)
                length = Int(bytes[0]) << 8 | Int(bytes[1])
            } else if length == 127 {
                length = try take(8).reduce(0) { $0 << 8 | Int($1) }
            }
            let body = try take(length)
            if frameOpcode >= 8 {
                if frameOpcode == 8 { return (8, body) }
                continue
            }
            if frameOpcode != 0 { opcode = frameOpcode }
            payload += body
            if head[0] & 0x80 != 0 { return (opcode ?? 0, payload) }
        }
    }

    func textMessage() throws -> String {
        let (opcode, payload) = try message()
        guard opcode == 1 else { throw Failure(description: "a message with opcode \(opcode), not text") }
        return String(decoding: payload, as: UTF8.self)
    }
}

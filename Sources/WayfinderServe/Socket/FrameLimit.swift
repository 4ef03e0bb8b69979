/// The frames a page sends on its WebSocket, read header by header as they pass on to the server
/// (`FrontDoor`): a frame, or a message of several frames, that would carry more than `limit`
/// bytes is refused as soon as the header announcing it is read, so none of its payload is read
/// (the server library reads a frame whole before it hands it on). Everything else passes as it
/// came; the server checks the rest of the protocol.
struct FrameLimit {
    /// The most a message may carry: what the page's longest command needs, no more.
    let limit: Int

    struct Refusal: Error, Equatable, CustomStringConvertible {
        let description: String
    }

    private enum Position {
        /// Reading a frame's header: the bytes of it read so far.
        case header([UInt8])
        /// Passing on a frame's payload: how many bytes of it are still to come.
        case payload(Int)
    }

    private var position = Position.header([])
    /// The payload bytes of the data message under way (its frames so far).
    private var message = 0

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes the bytes that came; answers those that may pass on, or why the connection ends.
    mutating func admit(_ bytes: some Collection<UInt8>) throws(Refusal) -> [UInt8] {
        var passed: [UInt8] = []
        passed.reserveCapacity(bytes.count)
        var rest = bytes[...]
        while !rest.isEmpty {
            switch position {
            case .payload(let left):
                let taken = rest.prefix(left)
                passed += taken
                rest = rest.dropFirst(taken.count)
                position = left == taken.count ? .header([]) : .payload(left - taken.count)
            case .header(var header):
                header.append(rest.removeFirst())
                guard header.count >= 2, header.count == Self.headerLength(header) else {
                    position = .header(header)
                    continue
                }
                let length = try check(header)
                passed += header
                position = length == 0 ? .header([]) : .payload(length)
            }
        }
        return passed
    }

    /// A frame header's length: 2 bytes, the extended length's 2 or 8, the mask's 4.
    private static func headerLength(_ header: [UInt8]) -> Int {
        let short = header[1] & 0x7F
        return 2 + (short == 126 ? 2 : short == 127 ? 8 : 0) + (header[1] & 0x80 != 0 ? 4 : 0)
    }

    /// The payload length the complete `header` announces, when the frame and its message stay
    /// within the limit.
    private mutating func check(_ header: [UInt8]) throws(Refusal) -> Int {
        let fin = header[0] & 0x80 != 0
        let opcode = header[0] & 0x0F
        let short = header[1] & 0x7F
        var announced = UInt64(short)
        if short == 126 {
            announced = UInt64(header[2]) << 8 | UInt64(header[3])
        } else if short == 127 {
            announced = header[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
        }
        guard announced <= UInt64(limit) else {
            throw Refusal(description: "a frame of \(announced) bytes is longer than the \(limit) a message may have")
        }
        let length = Int(announced)
        // Control frames (8 and up) may come between a message's frames and are no part of it.
        if opcode < 8 {
            message = opcode == 0 ? message + length : length
            guard message <= limit else {
                throw Refusal(description: "a message of more than \(limit) bytes (its frames so far hold \(message))")
            }
            if fin { message = 0 }
        }
        return length
    }
}

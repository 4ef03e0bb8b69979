import Testing
@testable import WayfinderServe

/// The front door's reading of a request head, over every head a small grammar makes: targets of
/// each form, Host headers from none to three in any spelling, lengths, line ends, and bytes the
/// head may not hold; each read whole and cut at every point, as the bytes arrive.
@Suite("request head, generated")
struct RequestHeadPropertyTests {
    static let targets = ["/", "/ws?token=abc", "/a%20b?x=1&token=abc", "http://a:1/", "HTTP://a:1/x", "a:1", "*", "?token=abc", ""]
    static let hostLines = ["Host: a:1", "host:a:1", "HOST :  a:1", "hOsT:\ta:1"]
    static let otherLines = ["", "Content-Length: 5", "Content-Length: 12345678901234567890", "Content-Length: 5\r\nContent-Length: 5",
                             "Transfer-Encoding: chunked", "X-Note: \u{7F}", "X-Empty:", "Hostname: b:2"]
    static let lineEnds = ["\r\n", "\n"]

    /// Every head of the grammar, with what an independent reading of it expects.
    static var heads: [(text: String, target: String, hosts: Int, other: String)] {
        var heads: [(String, String, Int, String)] = []
        for target in targets {
            for hosts in 0...3 {
                for (index, other) in otherLines.enumerated() {
                    let end = lineEnds[(hosts + index) % lineEnds.count]
                    var lines = ["GET \(target) HTTP/1.1"]
                    for host in 0..<hosts { lines.append(hostLines[(host + index) % hostLines.count]) }
                    if !other.isEmpty { lines.append(other.replacingOccurrences(of: "\r\n", with: end)) }
                    heads.append((lines.joined(separator: end) + end + end, target, hosts, other))
                }
            }
        }
        return heads
    }

    @Test func everyHeadIsReadAsItsGrammarSaysWholeOrArrivingInParts() {
        for (text, target, hosts, other) in Self.heads {
            let bytes = Array(text.utf8)
            let whole = RequestHead.read(bytes)
            let expected: RequestHead.Reading
            if other.contains("\u{7F}") {
                expected = .notHTTP
            } else if !target.hasPrefix("/") {
                expected = .malformed("")
            } else if other.hasPrefix("Transfer-Encoding") {
                expected = .unmeasuredBody
            } else if hosts > 1 {
                expected = .malformed("")
            } else if other.hasPrefix("Content-Length: 5\r\nContent-Length") || other.hasSuffix("7890") {
                expected = .notHTTP
            } else {
                expected = .head(RequestHead(bytes: bytes, bodyLength: other == "Content-Length: 5" ? 5 : 0), length: bytes.count)
            }
            switch (whole, expected) {
            case (.malformed, .malformed): break
            default: #expect(whole == expected, "\(text.debugDescription)")
            }
            if case .head(let head, _) = whole {
                #expect(head.target == target)
                #expect(head.carries(AccessToken(text: "abc")) == target.contains("token=abc"))
            }
            // Bytes arrive in parts: until the empty line is in, the head is not complete.
            for cut in 0..<bytes.count {
                let part = RequestHead.read(Array(bytes[..<cut]))
                if part != .incomplete && part != .notHTTP {
                    Issue.record("\(text.debugDescription) cut at \(cut) reads as \(part)")
                }
            }
            // What follows the head (a body, a second request) does not change how it is read.
            #expect(RequestHead.read(bytes + Array("GET / HTTP/1.1\r\n".utf8)) == whole)
        }
    }

    @Test func aHeadThatDoesNotEndIsRefusedAtTheLimitWhateverItsLines() {
        for line in ["GET /", "X: y\r\n", "X: y\n", "\t"] {
            var bytes = Array("GET / HTTP/1.1\r\n".utf8)
            while bytes.count <= RequestHead.limit { bytes += Array(line.utf8) }
            #expect(RequestHead.read(bytes) == .tooLong, "\(line.debugDescription)")
            #expect(RequestHead.read(Array(bytes.prefix(RequestHead.limit))) == .incomplete, "\(line.debugDescription)")
        }
    }
}

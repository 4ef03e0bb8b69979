/// The secret in the address `wayfinder serve` prints: every request and WebSocket must carry it
/// (`?token=...`), so another user of the machine, or a page in the browser that guessed the
/// port, cannot drive the app. 32 random bytes from the system's generator, as hex.
public struct AccessToken: Sendable, Equatable, CustomStringConvertible {
    public let text: String

    public init() {
        var generator = SystemRandomNumberGenerator()
        text = (0..<32).map { _ in
            let byte = UInt8.random(in: .min ... .max, using: &generator)
            return String(byte, radix: 16).leftPadded(to: 2)
        }.joined()
    }

    /// A known token, for tests that build requests by hand.
    public init(text: String) {
        self.text = text
    }

    public var description: String { text }

    /// Whether `candidate` is this token. Compares every byte whatever the first difference, so
    /// the time an answer takes does not tell how much of a guess was right.
    public func matches(_ candidate: String?) -> Bool {
        guard let candidate else { return false }
        let expected = Array(text.utf8)
        let given = Array(candidate.utf8)
        var difference = UInt8(expected.count == given.count ? 0 : 1)
        for index in expected.indices {
            difference |= expected[index] ^ (index < given.count ? given[index] : 0)
        }
        return difference == 0
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}

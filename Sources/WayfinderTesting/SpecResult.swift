import WayfinderLua

/// What became of one test of a spec file.
package struct SpecResult: Sendable, Equatable {
    package enum Status: String, Sendable {
        case passed
        /// An assertion did not hold.
        case failed
        /// The code raised an error, or ran out of time or memory.
        case errored
        case pending
    }

    /// The spec file, as it was given.
    package let file: String
    /// The enclosing blocks' names and the test's, joined by spaces, as busted names a test.
    package let name: String
    package let status: Status
    /// Why it failed: "file:line: message", then expected and actual for an assertion.
    package let message: String?
    package let traceback: String?
    package let seconds: Double

    package init(file: String, name: String, status: Status, message: String? = nil, traceback: String? = nil, seconds: Double = 0) {
        self.file = file
        self.name = name
        self.status = status
        self.message = message
        self.traceback = traceback
        self.seconds = seconds
    }

    package var isFailure: Bool { status == .failed || status == .errored }

    /// The most of a failure's message a result keeps (and the report, TAP and JUnit print).
    package static let maximumMessageBytes = 16 << 10

    /// `message`, cut to ``maximumMessageBytes`` with a note of its whole length: every test may
    /// fail with a message as long as the memory limit, and the run keeps and prints them all.
    static func reported(_ message: String) -> String {
        let length = message.utf8.count
        guard length > maximumMessageBytes else { return message }
        return String(decoding: message.utf8.prefix(maximumMessageBytes), as: UTF8.self) + "… (\(length) bytes in all)"
    }
}

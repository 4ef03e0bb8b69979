import Foundation
import Testing

/// `wayfinder run` on a terminal (a pseudo-terminal here): keys are read in raw mode through the
/// line editor, so arrows move and recall commands instead of arriving as escape text.
@Suite("wayfinder run on a terminal")
struct TerminalInputTests {
    /// `wayfinder run` with a pseudo-terminal as its standard input, output and error (made by
    /// util-linux's `script`, which copies what is typed to the terminal and what the program
    /// writes back); the output is collected as it comes.
    final class TerminalRun {
        let process = Process()
        private let input = Pipe()
        private let output = Pipe()
        private let collected = WatchTests.LiveRun.Collected()

        init(_ arguments: [String]) throws {
            let command = ([WayfinderCLI.executable.path] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qfec", command.joined(separator: " "), "/dev/null"]
            process.standardInput = input
            process.standardOutput = output
            process.standardError = output
            let collected = collected
            output.fileHandleForReading.readabilityHandler = { handle in collected.append(handle.availableData) }
            try process.run()
        }

        var text: String { collected.text }

        func type(_ keys: String) {
            input.fileHandleForWriting.write(Data(keys.utf8))
        }

        /// Waits until the output holds `needle` `count` times; false after 10 seconds.
        func waitFor(_ needle: String, count: Int = 1) -> Bool {
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline {
                if text.components(separatedBy: needle).count - 1 >= count { return true }
                usleep(20_000)
            }
            return false
        }

        func finish() -> Int32 {
            process.waitUntilExit()
            output.fileHandleForReading.readabilityHandler = nil
            return process.terminationStatus
        }
    }

    static let pages = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render() return { title = "Page " .. self.name, links = { { "Next", "tt://page/" .. self.name .. "x" } } } end
        wf.map:from("tt://page/(initWithName:)", Page)
        wf.app { root = "tt://page/a" }
        """

    @Test func arrowsRecallAndMoveAndUnknownKeysAreIgnored() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.pages)
        let run = try TerminalRun(["run", directory.path, "--no-state"])
        #expect(run.waitFor("Page a"))
        run.type("1\r")
        #expect(run.waitFor("Stack:   Page a > Page ax\r\n"))
        // Up recalls "1", and Enter runs it again.
        run.type("\u{1B}[A")
        #expect(run.waitFor("\r\u{1B}[K> 1"))
        run.type("\r")
        #expect(run.waitFor("Stack:   Page a > Page ax > Page axx\r\n"))
        // F5 (an unknown key) is dropped; Left moves the cursor, so "x" goes before "b".
        run.type("b\u{1B}[15~\u{1B}[Dx\r")
        #expect(run.waitFor("! unknown command 'xb'"))
        #expect(!run.text.contains("unknown command '\u{1B}"))
        #expect(!run.text.contains("[15~"))
        // Up twice goes back past "xb" to "1"; Down comes forward again; Ctrl-U clears the line.
        run.type("\u{1B}[A\u{1B}[A\u{1B}[B\u{15}b\r")
        #expect(run.waitFor("Stack:   Page a > Page ax\r\n", count: 2))
        run.type("q\r")
        #expect(run.finish() == 0)
    }

    @Test func ctrlDOnAnEmptyLineQuits() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.pages)
        let run = try TerminalRun(["run", directory.path, "--no-state"])
        #expect(run.waitFor("Page a"))
        run.type("\u{04}")
        #expect(run.finish() == 0)
    }
}

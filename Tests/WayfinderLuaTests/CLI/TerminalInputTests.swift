import Foundation
import Testing

/// `wayfinder run` on a terminal (a pseudo-terminal here): keys are read in raw mode through the
/// line editor, so arrows move and recall commands instead of arriving as escape text.
@Suite("wayfinder run on a terminal")
struct TerminalInputTests {
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
        let run = try LiveProcess(["run", directory.path, "--no-state"], terminal: true)
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
        #expect(run.exitStatus() == 0)
    }

    @Test func ctrlDOnAnEmptyLineQuits() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.pages)
        let run = try LiveProcess(["run", directory.path, "--no-state"], terminal: true)
        #expect(run.waitFor("Page a"))
        run.type("\u{04}")
        #expect(run.exitStatus() == 0)
    }
}

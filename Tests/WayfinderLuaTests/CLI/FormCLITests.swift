import Foundation
import Testing
import Wayfinder

/// Fields and buttons through the real binary: `run` types into a field and presses a button
/// (`f N TEXT`, `p N`), shows a secret masked and never prints or saves it; `crawl` presses
/// buttons with the fields' declared samples.
@Suite("fields and buttons on the command line")
struct FormCLITests {
    static let secret = "pw-\(UInt32.random(in: 10000...99999))"

    static let source = """
        local wf = require "wayfinder"
        local Login = wf.controller "Login"
        function Login:init() end
        function Login:go(values)
          if values.who == "" then error("nobody typed a name") end
          print("signing in " .. values.who)
          wf.navigator:open("tt://welcome")
        end
        function Login:render()
          return {
            title = "Login",
            fields = {
              { name = "who", label = "Your name", sample = "ada" },
              { name = "pin", label = "PIN", kind = "secret" },
              { name = "keep", label = "Keep me", kind = "toggle" },
            },
            buttons = { { "Go", "go" } },
          }
        end
        local Welcome = wf.controller "Welcome"
        function Welcome:render() return { title = "Welcome" } end
        wf.map:from("tt://login", Login)
        wf.map:from("tt://welcome", Welcome)
        wf.app { name = "form-cli", root = "tt://login", persistence = "all" }
        """

    @Test func runTypesAndPressesShowsTheSecretMaskedAndKeepsTheRestForTheNextRun() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app/app.lua", Self.source)
        let state = directory.subpath("state.json")
        let first = try WayfinderCLI.run(["run", directory.subpath("app"), "--state", state],
                                         input: "f 1 ada\nf 2 \(Self.secret)\nf 3 on\nf 3 maybe\nf 9 x\nq\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout.contains("f1  Your name: [ada]"), "\(first.stdout)")
        #expect(first.stdout.contains("f2  PIN: [" + String(repeating: "•", count: Self.secret.count) + "]"))
        #expect(first.stdout.contains("f3  Keep me: [on]"))
        #expect(first.stdout.contains("! field 3 is a toggle: f 3 on, or f 3 off"))
        #expect(first.stdout.contains("! there is no field 9 on this screen (1-3)"))
        #expect(first.stdout.contains("p1 <Go>"))
        #expect(!(first.stdout + first.stderr).contains(Self.secret))
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains("ada"))
        #expect(!saved.contains(Self.secret))

        let second = try WayfinderCLI.run(["run", directory.subpath("app"), "--state", state], input: "p 1\np 2\nq\n")
        #expect(second.stdout.contains("f1  Your name: [ada]"), "a relaunch keeps what was typed")
        #expect(second.stdout.contains("f2  PIN: []"), "but not the secret")
        #expect(second.stdout.contains("signing in ada"))
        #expect(second.stdout.contains("Welcome"))
        #expect(second.stdout.contains("! there is no button 2 on this screen"), "\(second.stdout)")
    }

    @Test func onATerminalASecretIsMaskedAsItIsTyped() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.source)
        let run = try LiveProcess(["run", directory.path, "--no-state"], terminal: true)
        #expect(run.waitFor("f2  PIN: []"))
        run.type("f 2 " + Self.secret)
        #expect(run.waitFor("> f 2 " + String(repeating: "•", count: Self.secret.count)))
        run.type("\r")
        #expect(run.waitFor("f2  PIN: [" + String(repeating: "•", count: Self.secret.count) + "]"))
        run.type("f 1 ada\r")
        #expect(run.waitFor("f1  Your name: [ada]"))
        run.type("q\r")
        #expect(run.exitStatus() == 0)
        #expect(!run.text.contains(Self.secret))
    }

    @Test func crawlPressesButtonsWithTheDeclaredSamplesAndReportsOneThatFails() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.source)
        let result = try WayfinderCLI.run(["crawl", directory.path, "--json"])
        // The sample name signs in, so the welcome screen is reached by the button alone.
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        guard case .map(let report) = try JSON.decode(result.stdout), case .array(let screens)? = report["screens"] else {
            Issue.record("not a crawl report: \(result.stdout)")
            return
        }
        #expect(screens.compactMap { $0["url"]?.stringValue } == ["tt://login", "tt://welcome"])

        try directory.write("app.lua", Self.source.replacingOccurrences(of: #", sample = "ada""#, with: ""))
        let empty = try WayfinderCLI.run(["crawl", directory.path])
        #expect(empty.status == 1)
        #expect(empty.stdout.contains("the button 'Go' from tt://login (\"Go\"): "), "\(empty.stdout)")
        #expect(empty.stdout.contains("nobody typed a name"), "\(empty.stdout)")
    }
}

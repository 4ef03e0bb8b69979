import Foundation
import Testing
@testable import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// The errors an app shows its user: each public error's `localizedDescription` is its message,
/// with its structure (kind, file, line, traceback) in fields; a constructor's failure on open
/// arrives as `NavigationError.controllerFailed` carrying the script's error.
@Suite("The host's errors")
struct HostErrorTests {
    static let app = """
        local wf = require "wayfinder"
        local Note = wf.controller "Note"
        function Note:initWithText(text)
          if text == "broken" then error("no such note") end
          self.text = text
        end
        wf.map:from("tt://note/(initWithText:)", Note)
        wf.app { name = "notes", root = "tt://note/home" }
        """

    /// Every public error type: `localizedDescription` (what an alert shows) is the message its
    /// `description` gives, not Foundation's "The operation could not be completed".
    @Test(arguments: [
        NavigationError.noRoute("tt://x", reason: "no route matches") as any Error,
        NavigationError.controllerFailed("tt://x", reason: "boom", cause: .init(ScriptError(kind: .runtime, message: "boom"))),
        CodecError.invalidPercentEscape(offset: 4),
        URLReadError.noScheme,
        ContextError.unknownField("user", context: "session"),
        ContextChain.ObserverFailure(key: "user", error: Refusal("no")),
        JSON.DecodingError(offset: 3, reason: "unexpected end"),
        JSON.EncodingError(reason: "a handle cannot be written"),
        NavigationStateError.unknownVersion(9),
        PatternError(pattern: "tt://note/(", reason: "unclosed parenthesis"),
        URLGenerationError(pattern: "tt://note/(id)", reason: "no value for id"),
        StateStoreError(path: "/tmp/x", reason: "cannot write"),
        ScriptError(kind: .runtime, message: "app.lua:3: boom", file: "app.lua", line: 3),
        Refusal("not a number"),
        AppLoadError.notFound("no app.lua in /nowhere"),
        AppLoadError.script(ScriptError(kind: .syntax, message: "app.lua:1: unexpected symbol", file: "app.lua", line: 1)),
        ReloadError(message: "reload failed, the app runs on unchanged: app.lua:2: boom"),
        HostThreadError(operation: "open"),
        PersistenceError.noStateStore,
        MigrationError(from: 1, to: 2, migration: "app.lua:9", reason: "boom"),
        SpecRunnerError.notFound("lua/spec"),
        SnapshotError("cannot read routes.snapshot"),
    ])
    func everyPublicErrorShowsItsMessage(_ error: any Error) {
        #expect(error.localizedDescription == String(describing: error))
        #expect(!error.localizedDescription.contains("could not be completed"))
    }

    /// A constructor's error on open is the navigation error it is, with the script's error in it:
    /// its kind, file and line as fields, and the message shown as the open's.
    @Test func aConstructorsFailureArrivesAsControllerFailedCarryingTheScriptError() throws {
        let embedded = try EmbeddedApp(Self.app)
        try embedded.host.launch()
        let before = embedded.host.tree
        do {
            try embedded.host.open("tt://note/broken")
            Issue.record("the open succeeded")
        } catch let error as NavigationError {
            guard case .controllerFailed(let url, let reason, let cause?) = error else {
                Issue.record("not controllerFailed with a cause: \(error)")
                return
            }
            #expect(url == "tt://note/broken")
            let script = try #require(cause.error as? ScriptError)
            #expect(script.kind == .runtime)
            #expect(script.file == "app.lua")
            #expect(script.line == 4)
            #expect(reason == script.message)
            #expect(ScriptError.carried(by: error) == script)
            #expect(error.localizedDescription == "cannot open 'tt://note/broken': app.lua:4: no such note")
        }
        #expect(embedded.host.tree == before, "nothing changed")
    }

    /// A reload that fails on a script's error names its kind, file and line in fields, as an
    /// app's load error does.
    @Test func aFailedReloadCarriesTheScriptsKindFileAndLine() throws {
        let embedded = try EmbeddedApp(Self.app)
        try embedded.host.launch()
        let broken = try AppSource(sources: ["app.lua": "local x = 1\nerror('broken map')"])
        let unparsable = try AppSource(sources: ["app.lua": "local = 1"])
        let failing = try AppSource(sources: ["app.lua": "\n\nerror('no')"])
        do {
            try embedded.host.reload(from: broken)
            Issue.record("the reload succeeded")
        } catch {
            #expect(error.kind == .runtime)
            #expect(error.file == "app.lua")
            #expect(error.line == 2)
            #expect(error.localizedDescription == "reload failed, the app runs on unchanged: app.lua:2: broken map")
        }
        do {
            try embedded.host.reload(from: unparsable)
            Issue.record("the reload succeeded")
        } catch {
            #expect(error.kind == .syntax)
            #expect(error.file == "app.lua")
            #expect(error.line == 1)
        }
        do {
            _ = try WayfinderHost(WayfinderHost.Configuration(app: failing))
            Issue.record("the app loaded")
        } catch {
            #expect(error.kind == .runtime)
            #expect(error.file == "app.lua")
            #expect(error.line == 3)
            #expect(error.localizedDescription == String(describing: error))
        }
    }

    /// The library's persistence messages say what went wrong, not which command-line option helps.
    @Test func persistenceMessagesNameNoCommandLineOption() {
        let messages = [PersistenceError.noStateStore, .anotherApp(owner: "mail", app: "notes", path: "/tmp/s.json")].map(\.localizedDescription)
        #expect(messages[0] == "this app has no state store")
        #expect(messages[1] == "the navigation state in /tmp/s.json belongs to the app 'mail', not 'notes'; it is left untouched")
    }
}

import Foundation
import Testing
import Wayfinder
import WayfinderLua
@testable import WayfinderServe

/// Typing into a screen's fields and pressing its buttons from the page, what the devtools log
/// says of them, and the Record button's spec; a secret never reaches the page, the log, the
/// recorded spec or the state file.
@Suite("serve: fields, buttons and recording")
struct ServeFormTests {
    static let secret = "s3cret-\(UInt32.random(in: 1000...9999))"

    static let source = """
        local wf = require "wayfinder"
        local Login = wf.controller "Login"
        function Login:init() end
        function Login:go(values) self.said = "hello " .. values.who end
        function Login:render()
          return {
            title = "Login", lines = { self.said or "nobody yet" },
            fields = { { name = "who", label = "Your name" }, { name = "pin", label = "PIN", kind = "secret" } },
            buttons = { { "Go", "go" } },
          }
        end
        wf.map:from("tt://login", Login)
        wf.app { name = "serve-form", root = "tt://login", persistence = "all" }
        """

    func session() async throws -> (ServeSession, SessionProbe, ScratchDirectory) {
        let directory = try ScratchDirectory()
        try directory.write("app/app.lua", Self.source)
        let session = ServeSession(options: ServeOptions(app: directory.path + "/app", state: .path(directory.path + "/state.json")),
                                   hub: ClientHub())
        await session.start()
        let probe = await SessionProbe(session)
        _ = try await probe.next()
        return (session, probe, directory)
    }

    func text(_ value: Value) throws -> String { try JSON.encode(value) }

    @Test func typingAndPressingReachTheAppAndTheLogWithTheSecretMasked() async throws {
        let (_, probe, directory) = try await session()
        var message = try await probe.perform(.record(on: true))
        #expect(message["type"] == "recording")
        message = try await probe.perform(.fill(field: "Your name", value: "ada"))
        #expect(message.events.last?["kind"] == "fill")
        #expect(message.events.last?["message"] == "Your name = ada")
        #expect(message[path: "screen", "layers", 0, "screen", "fields", 0, "value"] == "ada")
        message = try await probe.perform(.fill(field: "pin", value: .string(Self.secret)))
        #expect(message.events.last?["message"] == .string("PIN = " + String(repeating: "•", count: Self.secret.count)))
        #expect(message[path: "screen", "layers", 0, "screen", "fields", 1, "filled"] == true)
        #expect(!(try text(message)).contains(Self.secret))
        message = try await probe.perform(.press(title: "Go"))
        #expect(message.events.last?["kind"] == "press")
        #expect(message[path: "screen", "layers", 0, "screen", "lines", 0] == "hello ada")
        message = try await probe.perform(.fill(field: "nothing", value: "x"))
        #expect(message.events.last?["outcome"] == "failed")
        #expect(message.events.last?["message"]?.stringValue?.contains("no field 'nothing' on the screen") == true)

        let recorded = try await probe.perform(.record(on: false))
        let spec = try #require(recorded["spec"]?.stringValue)
        #expect(spec.contains(#"app:fill("Your name", "ada")"#))
        #expect(spec.contains(#"app:tap("Go")"#))
        #expect(spec.contains(#"assert.is_true(app:see("Login"))"#))
        #expect(spec.contains(#"app:fill("PIN", "")"#))
        #expect(!spec.contains(Self.secret))
        #expect(!spec.contains("nothing"), "a step that failed is not recorded")

        let saved = try String(contentsOfFile: directory.path + "/state.json", encoding: .utf8)
        #expect(saved.contains("ada"))
        #expect(!saved.contains(Self.secret))
    }

    @Test(arguments: [
        (#"{"type":"fill","field":"who","value":3}"#, #"fill: "value" must be a string or a boolean"#),
        (#"{"type":"fill","value":"x"}"#, #"fill: "field" must be a string"#),
        (#"{"type":"press"}"#, #"press: "title" must be a string"#),
        (#"{"type":"record","on":"yes"}"#, #"record: "on" must be a boolean"#),
    ])
    func badFormMessagesAreRefusedWithTheReason(text: String, reason: String) {
        #expect(throws: ClientCommand.Refusal(reason: reason)) { try ClientCommand(json: text) }
    }

    @Test func theRecordedSpecQuotesWhatWasTypedAsLuaReadsIt() {
        var recorder = SessionRecorder()
        recorder.start(shown: "Say \"hi\"")
        recorder.add(.fill(.init(name: "n", label: "Note"), .string("a\\b\nc\u{1}2")), shown: nil)
        recorder.add(.fill(.init(name: "t", label: "On", kind: .toggle), .bool(true)), shown: nil)
        let spec = recorder.stop()
        #expect(spec.contains(#"assert.is_true(app:see("Say \"hi\""))"#))
        #expect(spec.contains(#"app:fill("Note", "a\\b\nc\0012")"#))
        #expect(spec.contains(#"app:fill("On", true)"#))
        #expect(!recorder.isRecording)
    }
}

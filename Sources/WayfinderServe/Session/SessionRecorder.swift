import Wayfinder
import WayfinderLua

/// What the Record button of `serve` captures: each step done on the phone (a link, button or
/// tab tapped, a field typed into, back, dismiss, a URL typed in the URL bar), as the spec line
/// that does it again, each followed by a check of what the screen shows after it. Stopping
/// answers the spec file: readable Lua that `wayfinder test` runs, launching the app fresh.
/// A secret field's value is never recorded: its step types nothing, saying so.
struct SessionRecorder {
    private(set) var isRecording = false
    private var steps: [String] = []

    /// Starts a recording, forgetting any other; `shown` is the title of the screen in view,
    /// which the replay checks first.
    mutating func start(shown: String?) {
        isRecording = true
        steps = []
        if let shown { steps.append("assert.is_true(app:see(\(Self.quoted(shown))))") }
    }

    /// Adds a step that worked, and the check of the screen `shown` after it.
    mutating func add(_ step: Step, shown: String?) {
        guard isRecording else { return }
        switch step {
        case .tap(let title): steps.append("app:tap(\(Self.quoted(title)))")
        case .open(let url): steps.append("assert.is_true(app:open(\(Self.quoted(url))))")
        case .back: steps.append("assert.is_true(app:back())")
        case .dismiss: steps.append("assert.is_true(app:dismiss())")
        case .fill(let field, let value):
            if field.isSecret {
                steps.append("-- \(Self.quoted(field.label)) is a secret: its value was not recorded")
                steps.append("app:fill(\(Self.quoted(field.label)), \"\")")
            } else {
                let text: String
                switch value {
                case .bool(let on): text = on ? "true" : "false"
                case .string(let string): text = Self.quoted(string)
                default: text = Self.quoted(value.description)
                }
                steps.append("app:fill(\(Self.quoted(field.label)), \(text))")
            }
        }
        if let shown { steps.append("assert.is_true(app:see(\(Self.quoted(shown))))") }
    }

    /// Stops recording and answers the spec that replays it.
    mutating func stop() -> String {
        isRecording = false
        let body = steps.map { "    " + $0 }.joined(separator: "\n")
        return """
            -- Recorded in wayfinder serve: each step as it was done on the phone, and what the screen
            -- showed after it. Save it in the app's spec/ directory and run `wayfinder test`.
            local wf = require "wayfinder"

            describe("a recorded session", function()
              it("replays what was done on the phone", function()
                local app = assert(wf.testing.launch(wf.testing.here("..")))
            \(body)
                app:close()
              end)
            end)

            """
    }

    /// One thing done on the phone.
    enum Step {
        case tap(String)
        case open(String)
        case back
        case dismiss
        case fill(RenderedScreen.Field, Value)
    }

    /// `text` as a Lua string literal (`Value.quote`).
    static func quoted(_ text: String) -> String { Value.quote(text) }
}

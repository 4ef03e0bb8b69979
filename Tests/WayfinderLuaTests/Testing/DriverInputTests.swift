import Testing
import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// What a spec (`app:fill`, `app:tap`) and `wayfinder crawl` type and press goes through the driven
/// app's host as an embedder's input does: its input observers hear it, in order, and an act
/// that finds nothing to act on tells them nothing.
@Suite("Input through the test kit")
struct DriverInputTests {
    static let app = """
        local wf = require "wayfinder"
        local Form = wf.controller "Form"
        function Form:init() end
        function Form:send(values) self.sent = values.who end
        function Form:render()
          return {
            title = "Form", lines = { self.sent and ("sent " .. self.sent) or "nothing sent" },
            fields = { { name = "who", label = "Your name", kind = "text", value = "guest", sample = "sam" } },
            buttons = { { "Send", "send" } },
          }
        end
        wf.map:from("tt://form", Form)
        wf.app { name = "form", root = "tt://form" }
        """

    /// Each event as `url field=value` or `url pressed title`.
    final class Heard {
        var lines: [String] = []

        func hear(_ event: ScreenInputEvent) {
            switch event {
            case .fieldSet(let url, let field): lines.append("\(url ?? "-") \(field.name)=\(field.shownValue)")
            case .pressed(let url, let button): lines.append("\(url ?? "-") pressed \(button.title)")
            }
        }
    }

    func driver() throws -> AppDriver {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app)
        return try AppDriver(path: directory.path, stateFile: nil, limits: LuaLimits(memoryBytes: 16 << 20, timeBudget: .seconds(5)),
                             printSink: { _ in })
    }

    @Test func aSpecsFillAndTapReachTheInputObservers() throws {
        let driver = try driver()
        defer { try? driver.close() }
        let host = try driver.running()
        let heard = Heard()
        host.observeInput(heard.hear)
        try host.fill("Your name", with: "ada")
        #expect(try host.tap("Send") == .button(RenderedScreen.Button(title: "Send", method: "send")))
        #expect(heard.lines == ["tt://form who=ada", "tt://form pressed Send"])
        #expect(try host.visibleTexts().contains("sent ada"), "the press ran the button's method")
    }

    @Test func anActThatFindsNothingTellsNothing() throws {
        let driver = try driver()
        defer { try? driver.close() }
        let host = try driver.running()
        let heard = Heard()
        host.observeInput(heard.hear)
        #expect(throws: ScriptError.self) { try host.tap("Nowhere") }
        #expect(throws: ScriptError.self) { try host.fill("nothing", with: "x") }
        #expect(throws: ScriptError.self) { try host.fill("who", with: .bool(true)) }
        #expect(heard.lines.isEmpty)
        #expect(try host.visibleTexts().contains("nothing sent"))
    }

    /// The crawl types each field's sample, then presses, through the host.
    @Test func theCrawlsPressReachesTheInputObservers() throws {
        let driver = try driver()
        defer { try? driver.close() }
        let host = try driver.running()
        let heard = Heard()
        host.observeInput(heard.hear)
        try FlowCrawl.pressWithSamples("Send", in: host)
        #expect(heard.lines == ["tt://form who=sam", "tt://form pressed Send"])
    }
}

import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// Fields and buttons on a screen: what `render()` may return, typing into a field and pressing a
/// button through the host, values that live with the screen through re-renders, hot reloads and
/// relaunches, and a secret that never leaves memory.
@Suite("Screen fields and buttons")
struct ScreenFieldTests {
    static let secret = "hunter2-\(UInt32.random(in: 1000...9999))"

    static func app(title: String = "Sign in", restore: String = "") -> String {
        """
        local wf = require "wayfinder"
        local Login = wf.controller "Login"
        function Login:initWithName(name) self.name = name end
        \(restore)
        function Login:send(values)
          self.sent = values.who .. "/" .. #values.password .. "/" .. tostring(values.remember) .. "/" .. values.size
          print("sent " .. values.who)
        end
        function Login:render()
          return {
            title = "\(title)", lines = { self.sent or "nothing sent" },
            fields = {
              { name = "who", label = "Your name", kind = "text", value = "guest" },
              { name = "password", label = "Password", kind = "secret" },
              { name = "remember", label = "Remember me", kind = "toggle" },
              { name = "size", label = "Size", kind = "choice", choices = { "S", "M", "L" } },
            },
            buttons = { { "Send", "send" }, { title = "Open", method = "open_next" } },
          }
        end
        function Login:open_next() wf.navigator:open("tt://login/next") end
        wf.map:from("tt://login/(initWithName:)", Login)
        wf.app { name = "login", root = "tt://login/home", persistence = "all" }
        """
    }

    final class Heard {
        var input: [ScreenInputEvent] = []
        var printed: [String] = []
        var warnings: [String] = []
    }

    func host(_ directory: TemporaryDirectory, heard: Heard) throws -> WayfinderHost {
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: directory.path))
        configuration.stateStore = FileStateStore(path: directory.subpath("state.json"))
        configuration.printSink = { heard.printed.append($0) }
        configuration.warn = { heard.warnings.append($0) }
        let host = try WayfinderHost(configuration)
        host.observeInput { heard.input.append($0) }
        return host
    }

    func visible(_ host: WayfinderHost) throws -> LuaController {
        try #require(host.tree.visible.flatMap(host.controller(for:)))
    }

    @Test func renderGivesFieldsWithTheirDefaultsAndButtons() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app())
        let host = try host(directory, heard: Heard())
        try host.launch()
        let fields = try host.fields(of: try visible(host))
        #expect(fields.map(\.name) == ["who", "password", "remember", "size"])
        #expect(fields.map(\.label) == ["Your name", "Password", "Remember me", "Size"])
        #expect(fields.map(\.value) == [.string("guest"), .string(""), .bool(false), .string("S")])
        #expect(fields[3].choices == ["S", "M", "L"])
        #expect(try host.buttons(of: try visible(host)) == [.init(title: "Send", method: "send"), .init(title: "Open", method: "open_next")])
    }

    @Test func pressingCallsTheMethodWithTheValuesByNameAndTypedValuesSurviveReRenders() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app())
        let heard = Heard()
        let host = try host(directory, heard: heard)
        try host.launch()
        let login = try visible(host)
        try host.setField("Your name", to: "ada", on: login)
        try host.setField("password", to: .string(Self.secret), on: login)
        try host.setField("remember", to: true, on: login)
        try host.setField("Size", to: "L", on: login)
        #expect(try host.render(login)?.fields.map(\.value) == [.string("ada"), .string(Self.secret), .bool(true), .string("L")])
        try host.press("Send", on: login)
        #expect(try host.render(login)?.lines == ["ada/\(Self.secret.count)/true/L"])
        #expect(try host.render(login)?.fields.first?.value == .string("ada"), "a re-render keeps what was typed")
        // A button's method navigates as any controller code does.
        try host.press("Open", on: login)
        #expect(host.tree.visible?.url == "tt://login/next")
        // The events tell what was typed, a secret masked, and what was pressed.
        #expect(heard.input.count == 6)
        guard case .fieldSet(let url, let password) = heard.input[1] else { Issue.record("\(heard.input)"); return }
        #expect(url == "tt://login/home")
        #expect(password.value == .string(String(repeating: "•", count: Self.secret.count)))
        #expect(heard.input[4] == .pressed(url: "tt://login/home", button: .init(title: "Send", method: "send")))
        #expect(!"\(heard.input)".contains(Self.secret))
    }

    @Test func valuesThatDoNotFitOrFieldsAndButtonsThatAreNotThereAreRefusedNamingWhatIs() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app())
        let host = try host(directory, heard: Heard())
        try host.launch()
        let login = try visible(host)
        #expect(thrownMessage { try host.setField("email", to: "x", on: login) } == "no field 'email' on the screen (fields: 'who', 'password', 'remember', 'size')")
        #expect(thrownMessage { try host.setField("size", to: "XL", on: login) } == "'XL' is not one of the choices of field 'size' (S, M, L)")
        #expect(thrownMessage { try host.setField("remember", to: "yes", on: login) }?.contains("toggle") == true)
        #expect(thrownMessage { try host.setField("who", to: true, on: login) } == "field 'who' holds text, not a boolean")
        #expect(thrownMessage { try host.setField("who", to: .string(String(repeating: "x", count: (1 << 20) + 1)), on: login) }?.contains("1 MiB") == true)
        #expect(thrownMessage { try host.press("Delete", on: login) } == "no button 'Delete' on the screen (buttons: 'Send', 'Open')")
        #expect(try host.render(login)?.fields.first?.value == .string("guest"), "a refused value changes nothing")
    }

    @Test func valuesSurviveARelaunchAndAHotReloadButASecretIsNeverSaved() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app(restore: "function Login:restore(state) self.restored = state end"))
        let heard = Heard()
        let host = try host(directory, heard: heard)
        try host.launch()
        try host.setField("who", to: "ada", on: try visible(host))
        try host.setField("password", to: .string(Self.secret), on: try visible(host))
        try host.setField("size", to: "M", on: try visible(host))
        try host.relaunch()
        var fields = try host.fields(of: try visible(host))
        #expect(fields.map(\.value) == [.string("ada"), .string(""), .bool(false), .string("M")])
        // The script's restore sees its own state only: it wrote none.
        #expect(try host.field("restored", of: try visible(host)) == .null)
        let saved = try String(contentsOfFile: directory.subpath("state.json"), encoding: .utf8)
        #expect(saved.contains("ada"))
        #expect(!saved.contains(Self.secret))
        // A hot reload with new code keeps them too.
        try host.setField("password", to: .string(Self.secret), on: try visible(host))
        try directory.write("app.lua", Self.app(title: "Log in"))
        try host.reload()
        let screen = try #require(try host.render(try visible(host)))
        #expect(screen.title == "Log in")
        fields = screen.fields
        #expect(fields.map(\.value) == [.string("ada"), .string(""), .bool(false), .string("M")])
        try host.persist()
        #expect(!(try String(contentsOfFile: directory.subpath("state.json"), encoding: .utf8)).contains(Self.secret))
        #expect(!(heard.printed + heard.warnings).joined().contains(Self.secret))
    }

    @Test(arguments: [
        ("{ { name = 'a', kind = 'number' } }", "returned fields[1] with an unknown kind 'number' (kinds: text, secret, toggle, choice)"),
        ("{ { name = 'a', kind = 'choice' } }", "returned fields[1] of kind choice without choices (a non-empty list of strings)"),
        ("{ { name = 'a', kind = 'choice', choices = { 'x', 3 } } }", "returned fields[1].choices[2] that is an integer, not a string"),
        ("{ { name = 'a', choices = { 'x' } } }", "returned fields[1] with choices, which only a field of kind choice has"),
        ("{ { label = 'A' } }", "returned fields[1] without a name (a non-empty string)"),
        ("{ { name = 'a' }, { name = 'a' } }", "returned two fields named 'a'"),
        ("{ { name = 'a', kind = 'toggle', value = 'yes' } }", "returned fields[1] whose value does not fit"),
        ("{ { name = 'a', colour = 'red' } }", "returned fields[1] with an unknown key 'colour'"),
        ("{ 'a' }", "returned fields[1] that is a string"),
        ("'a'", "returned fields that are a string, not a list"),
    ])
    func badFieldsAreRefusedAtTheRenderFunctionsLine(fields: String, expected: String) throws {
        let source = """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"

            function Page:render()
              return { title = "Page", fields = \(fields) }
            end
            wf.map:from("tt://page", Page)
            wf.app { name = "page", root = "tt://page" }
            """
        let host = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source])))
        try host.launch()
        let page = try visible(host)
        let error = try #require(throws: ScriptError.self) { try host.render(page) }
        #expect(error.message.hasPrefix("app.lua:4: render() of Page "), "\(error.message)")
        #expect(error.message.contains(expected), "\(error.message)")
        #expect(error.file == "app.lua")
        #expect(error.line == 4)
    }

    @Test(arguments: [
        ("{ { 'Send' } }", "returned buttons[1] that is not { \"title\", \"method\" }"),
        ("{ { 'Send', 3 } }", "returned buttons[1] without a string title and a method name"),
        ("{ { title = 'Send', method = 'send', colour = 'red' } }", "returned buttons[1] that is not"),
        ("true", "returned buttons that are a boolean, not a list"),
    ])
    func badButtonsAreRefused(buttons: String, expected: String) throws {
        let source = """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:render() return { title = "Page", buttons = \(buttons) } end
            wf.map:from("tt://page", Page)
            wf.app { name = "page", root = "tt://page" }
            """
        let host = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source])))
        try host.launch()
        let error = try #require(throws: ScriptError.self) { try host.render(try visible(host)) }
        #expect(error.message.hasPrefix("app.lua:3: "), "\(error.message)")
        #expect(error.message.contains(expected), "\(error.message)")
    }

    @Test func aButtonsMethodsErrorNamesItsLineAndTheBudgetStopsALoopingOne() throws {
        let source = """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:fail() error("out of dough") end
            function Page:spin() while true do end end
            function Page:render() return { title = "Page", buttons = { { "Fail", "fail" }, { "Spin", "spin" }, { "Gone", "missing" } } } end
            wf.map:from("tt://page", Page)
            wf.app { name = "page", root = "tt://page" }
            """
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source]))
        configuration.limits = LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(200))
        let host = try WayfinderHost(configuration)
        try host.launch()
        let page = try visible(host)
        #expect(thrownMessage { try host.press("Fail", on: page) }?.contains("app.lua:3: out of dough") == true)
        let spin = try #require(throws: ScriptError.self) { try host.press("Spin", on: page) }
        #expect(spin.kind == .timeout)
        #expect(thrownMessage { try host.press("Gone", on: page) }?.contains("missing") == true)
        #expect(try host.render(page)?.title == "Page", "the app runs on")
    }
}

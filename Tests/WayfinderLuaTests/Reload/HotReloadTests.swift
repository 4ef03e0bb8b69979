import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// Hot reload (docs/design.md): a fresh state from the files on disk, swapped in only when it loads,
/// its route map checks out and the visible screen can be made again.
@Suite("Hot reload")
struct HotReloadTests {
    /// An app whose note screens keep a draft through `persist`; `title` is what the edited
    /// constructor changes, `routes` what the edited map adds.
    static func app(title: String = "Note", routes: String = "", constructor: String = "") -> String {
        """
        local wf = require "wayfinder"
        local Note = wf.controller "Note"
        function Note:initWithText(text) \(constructor) self.text = text; self.draft = DRAFT or "" end
        function Note:persist(state) state.draft = self.draft end
        function Note:restore(state) self.draft = state.draft end
        function Note:render() return { title = "\(title) " .. self.text, lines = { "draft: " .. self.draft } } end

        local Page = wf.controller "Page"
        function Page:init() end
        function Page:persist() return false end

        wf.map:from("tt://note/(initWithText:)", Note)
        wf.map:from("tt://page/(id)", Page)
        wf.map:from("tt://menu", Page, { mode = "share" })
        \(routes)
        wf.app { name = "notes", root = "tt://menu" }
        """
    }

    final class Running {
        let directory: TemporaryDirectory
        var host: AppHost
        var warnings: [String] = []

        init(_ source: String, files: [String: String] = [:]) throws {
            directory = try TemporaryDirectory()
            try directory.write("app.lua", source)
            for (path, text) in files { try directory.write(path, text) }
            host = try AppHost(path: directory.path, printSink: { _ in })
            host.warn = { [unowned self] in warnings.append($0) }
            try host.launch()
        }

        func edit(_ source: String, file: String = "app.lua") throws { try directory.write(file, source) }

        /// Reloads, adopting the new host as `wayfinder run` does.
        func reload() throws(ReloadError) -> ReloadReport {
            let (fresh, report) = try host.reloaded()
            host = fresh
            return report
        }

        var visibleTitle: String? {
            guard let controller = host.navigator.tree.visible?.controller else { return nil }
            return (try? host.bridge.render(controller))??.title
        }

        var urls: [String] { host.navigator.tree.allEntries.map(\.url) }
    }

    @Test("a good edit swaps: same place, the visible screen made by the new constructor with its saved state")
    func goodEdit() throws {
        let app = try Running(Self.app())
        try app.host.navigator.open("tt://page/1")
        // The draft lives only in the old state: the new one gets it through persist/restore.
        try app.host.state.run(source: "DRAFT = 'milk, eggs'")
        try app.host.navigator.open("tt://note/groceries")
        let note = try #require(app.host.navigator.tree.visible?.controller)
        let before = app.urls
        let old = app.host

        try app.edit(Self.app(title: "Shopping", routes: #"wf.map:from("tt://about", Page)"#))
        let report = try app.reload()

        #expect(app.host !== old)
        #expect(app.urls == before)
        #expect(app.visibleTitle == "Shopping groceries")
        let visible = try #require(app.host.navigator.tree.visible?.controller)
        #expect(try app.host.bridge.render(visible)?.lines == ["draft: milk, eggs"])
        #expect(report.changes == RouteChanges(added: ["tt://about"]))
        #expect(app.host.constructedCount == 1, "only the visible screen is made again")
        // The old host is untouched: its tree still holds its own controllers.
        #expect(old.navigator.tree.visible?.controller === note)
        // Going back makes the page below with the new scripts.
        #expect(try app.host.navigator.back())
        #expect(app.host.navigator.url == "tt://page/1")
        #expect(app.host.constructedCount == 2)
    }

    @Test("a syntax error keeps the old app and names the file and line", arguments: [
        ("app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://x', function() end\n", "app.lua:3:"),
        ("screens/note.lua", "return {\n  broken = \n", "screens/note.lua:3:"),
    ])
    func brokenEdit(file: String, text: String, location: String) throws {
        let app = try Running(Self.app(routes: #"require "screens.note""#), files: ["screens/note.lua": "return {}"])
        try app.host.navigator.open("tt://note/todo")
        let old = app.host
        try app.edit(text, file: file)

        #expect {
            _ = try app.reload()
        } throws: { error in
            let message = (error as? ReloadError)?.message ?? ""
            return message.contains(location) && message.contains("runs on unchanged")
        }
        #expect(app.host === old)
        #expect(app.host.navigator.url == "tt://note/todo")
        try app.host.navigator.open("tt://page/2")
        #expect(app.host.navigator.url == "tt://page/2", "the old app still navigates")
    }

    @Test("a constructor that now fails for the visible screen refuses the reload; the next good save recovers")
    func failingConstructor() throws {
        let app = try Running(Self.app())
        try app.host.navigator.open("tt://note/todo")
        try app.edit(Self.app(constructor: #"if text == "todo" then error("no todo lists today") end"#))
        #expect {
            _ = try app.reload()
        } throws: { error in
            (error as? ReloadError)?.message.contains("app.lua:3: no todo lists today") == true
        }
        #expect(app.visibleTitle == "Note todo")

        try app.edit(Self.app(title: "Fixed"))
        _ = try app.reload()
        #expect(app.visibleTitle == "Fixed todo")
    }

    @Test("a removed route drops its entries with a warning; the rest of the stack stays in order")
    func removedRoute() throws {
        let app = try Running(Self.app(routes: #"wf.map:from("tt://old/(id)", Page)"#))
        try app.host.navigator.open("tt://page/1")
        try app.host.navigator.open("tt://old/2")
        try app.host.navigator.open("tt://note/a")
        try app.edit(Self.app())
        let report = try app.reload()

        #expect(report.changes.removed == ["tt://old/(id)"])
        #expect(app.urls == ["tt://menu", "tt://page/1", "tt://note/a"])
        #expect(report.warnings.contains { $0.contains("tt://old/2") }, "\(report.warnings)")
        #expect(app.visibleTitle == "Note a")
    }

    @Test("the visible screen's route removed: the screen below is shown")
    func removedVisibleRoute() throws {
        let app = try Running(Self.app(routes: #"wf.map:from("tt://old/(id)", Page)"#))
        try app.host.navigator.open("tt://note/below")
        try app.host.navigator.open("tt://old/2")
        try app.edit(Self.app())
        let report = try app.reload()
        #expect(app.host.navigator.url == "tt://note/below")
        #expect(report.warnings.contains { $0.contains("tt://old/2") })
    }

    @Test("changed routes are reported by pattern")
    func changedRoutes() throws {
        let app = try Running(Self.app(routes: #"wf.map:from("tt://a", Page); wf.map:from("tt://b", Page)"#))
        try app.edit(Self.app(routes: #"wf.map:from("tt://a", Page, { mode = "modal" }); wf.map:from("tt://c", Page)"#))
        let report = try app.reload()
        #expect(report.changes == RouteChanges(added: ["tt://c"], removed: ["tt://b"], changed: ["tt://a"]))
        #expect(report.changes.summary == "routes: 1 added (tt://c), 1 removed (tt://b), 1 changed (tt://a)")
        #expect(RouteChanges().summary == "routes: no change")
    }

    @Test("a route map with a conflict is refused")
    func conflict() throws {
        let app = try Running(Self.app())
        try app.edit(Self.app(routes: #"wf.map:from("tt://u/(a)", Page); wf.map:from("tt://u/(b)", Page)"#))
        #expect {
            _ = try app.reload()
        } throws: { error in
            let message = (error as? ReloadError)?.message ?? ""
            return message.contains("tt://u/(a)") && message.contains("tt://u/(b)")
        }
        #expect(app.host.routes.routes.count == 3)
    }

    @Test("a script that loops at load time is stopped by the time budget, the app runs on")
    func loopingScript() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app())
        let host = try AppHost(path: directory.path, limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(200)), printSink: { _ in })
        try host.launch()
        try directory.write("app.lua", "while true do end")
        #expect(throws: ReloadError.self) { try host.reloaded() }
        try directory.write("app.lua", "local t = {} for i = 1, 1e9 do t[i] = ('x'):rep(65536) .. i end")
        #expect(throws: ReloadError.self) { try host.reloaded() }
        #expect(host.navigator.url == "tt://menu")
    }

    @Test("app context values and the state store carry over")
    func contextAndStore() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app())
        let host = try AppHost(path: directory.path, printSink: { _ in })
        host.stateStore = FileStateStore(path: directory.subpath("state.json"))
        try host.launch()
        try host.state.run(source: "require('wayfinder').context.app:set('user', 'ada')")
        try host.state.run(source: "require('wayfinder').context.app:set('callback', function() end)")
        let (fresh, report) = try host.reloaded()
        #expect(try fresh.state.run(source: "return require('wayfinder').context.app:get('user')") == ["ada"])
        #expect(try fresh.state.run(source: "return require('wayfinder').context.app:get('callback')") == [.null])
        #expect(report.warnings.contains { $0.contains("callback") }, "\(report.warnings)")
        #expect((fresh.stateStore as? FileStateStore)?.path == directory.subpath("state.json"))
    }
}

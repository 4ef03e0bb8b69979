import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// What a program's devtools ask the host: which route a URL opens and why, the route table,
/// whether a URL goes outside; and a tree kept as a state and restored later through the
/// navigator, as a launch restores the saved one.
@Suite("The host's route map and tree states")
struct HostRouteMapAndTreeStateTests {
    static func app(notePattern: String = "tt://note/(initWithText:)") -> String {
        """
        local wf = require "wayfinder"
        local Note = wf.controller "Note"
        function Note:initWithText(text) self.text = text end
        function Note:render() return { title = "Note " .. (self.text or "?") } end
        function Note:persist(state) state.kept = "kept " .. self.text end
        function Note:restore(state) self.restored = state.kept end
        local Sheet = wf.controller "Sheet"
        function Sheet:initWithName(name) self.name = name end
        wf.map:from("\(notePattern)", Note)
        wf.map:from("tt://sheet/(initWithName:)", Sheet, { mode = "modal" })
        wf.map:from("tt://(initWithText:)", Note)
        wf.app { name = "notes", root = "tt://home" }
        """
    }

    func host(_ source: String = Self.app()) throws -> (WayfinderHost, Heard) {
        let heard = Heard()
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source]))
        configuration.warn = { heard.warnings.append($0) }
        let host = try WayfinderHost(configuration)
        host.observe { heard.events.append($0) }
        try host.launch()
        heard.events = []
        return (host, heard)
    }

    final class Heard {
        var events: [NavigationEvent] = []
        var warnings: [String] = []
    }

    @Test func matchExplainAndTheRouteTableAnswerForTheAppOfTheMoment() throws {
        let (host, _) = try host()
        let report = try host.match("tt://note/pizza")
        #expect(report.match?.route.pattern.text == "tt://note/(initWithText:)")
        #expect(report.match?.params["initWithText"] == "pizza")
        #expect(report.method == "initWithText")
        #expect(try host.match("tt://nowhere/at/all").match == nil)
        #expect(try host.match("mailto:ann@example.com").external)

        let explanation = try host.explain("tt://note/pizza")
        #expect(explanation.entries.first?.pattern == "tt://note/(initWithText:)")
        #expect(explanation.entries.first?.verdict == .won)
        #expect(explanation.entries.contains { $0.pattern == "tt://(initWithText:)" && $0.verdict != .won })

        let table = try host.routeReports()
        #expect(table.map(\.pattern.text) == ["tt://note/(initWithText:)", "tt://sheet/(initWithName:)", "tt://(initWithText:)"])
        #expect(table[1].options.mode == .modal)

        #expect(host.isExternal("mailto:ann@example.com"))
        #expect(host.isExternal("tel:555"))
        #expect(!host.isExternal("tt://note/pizza"))
        #expect(!host.isExternal("tt://nowhere/at/all"))
        #expect(!host.isExternal("not a URL at all"))

        // After a reload the new map answers.
        try host.reload(from: try AppSource(sources: ["app.lua": Self.app(notePattern: "tt://memo/(initWithText:)")]))
        #expect(try host.match("tt://memo/pizza").match?.route.pattern.text == "tt://memo/(initWithText:)")
        #expect(try host.match("tt://note/pizza").match == nil)
        #expect(try host.routeReports().first?.pattern.text == "tt://memo/(initWithText:)")
    }

    @Test func aCapturedTreeIsRestoredThroughTheNavigatorAsALaunchRestores() throws {
        let (host, heard) = try host()
        try host.open("tt://note/a")
        try host.open("tt://sheet/s")
        let kept = host.capturedState()
        let keptTree = host.tree
        #expect(kept.visibleURL == "tt://sheet/s")

        try host.dismiss()
        try host.back()
        try host.open("tt://note/b")
        heard.events = []
        #expect(try host.restore(from: kept))
        // One event, the whole tree replaced, with the tree the state describes (new entries).
        #expect(heard.events.map(\.change) == [.replacedTree(.restore)])
        let tree = host.tree
        #expect(heard.events.first?.tree == tree)
        #expect(tree.visible?.url == "tt://sheet/s")
        #expect(tree.entries(in: .root)?.map(\.url) == keptTree.entries(in: .root)?.map(\.url))
        #expect(tree.modals.map { $0.map(\.url) } == [["tt://sheet/s"]])
        // Only the visible controller is made now; the others wait, with what `persist` kept.
        #expect(tree.entries(in: .root)?.map(\.isLoaded) == [false, false])
        #expect(tree.visible?.isLoaded == true)
        try host.dismiss()
        let note = try #require(host.tree.visible)
        let controller = try #require(host.controller(for: note))
        #expect(try host.field("restored", of: controller) == "kept a")
        #expect(try host.field("text", of: controller) == "a")
    }

    @Test func aStateWhoseScreensNoLongerOpenRestoresNothing() throws {
        let (host, heard) = try host()
        try host.open("tt://sheet/s")
        let kept = host.capturedState()
        // The app's map changes: none of the kept tree's URLs opens any more.
        try host.reload(from: try AppSource(sources: ["app.lua": """
            local wf = require "wayfinder"
            local Note = wf.controller "Note"
            function Note:initWithText(text) self.text = text end
            wf.map:from("tt://memo/(initWithText:)", Note)
            wf.app { name = "notes", root = "tt://memo/home" }
            """]))
        try host.start()
        heard.events = []
        heard.warnings = []
        let now = host.tree
        #expect(now.visible?.url == "tt://memo/home")
        #expect(try !host.restore(from: kept))
        #expect(host.tree == now)
        #expect(heard.events.isEmpty)
        #expect(heard.warnings.contains { $0.contains("tt://sheet/s") }, "\(heard.warnings)")
    }

    @Test func noRestoreWhileObserversAreToldOfAReplacedApp() throws {
        let (host, _) = try host()
        let kept = host.capturedState()
        try host.open("tt://note/a")
        var refusal: String?
        host.observe { event in
            guard case .replacedTree(.reload) = event.change else { return }
            refusal = thrownMessage { try host.restore(from: kept) }
        }
        try host.reload()
        #expect(refusal?.contains("while the navigator is busy with telling observers of a change") == true, "\(refusal ?? "restored")")
        #expect(host.tree.visible?.url == "tt://note/a")
    }
}

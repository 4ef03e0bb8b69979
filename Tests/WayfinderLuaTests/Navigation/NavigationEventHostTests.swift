import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// The Lua host's navigation (scripts calling `wayfinder.navigator`, launch and restore) tells
/// a Swift observer of its navigator what it committed.
@Suite("Navigation events from a Lua app")
struct NavigationEventHostTests {
    static let source = """
        local wf = require "wayfinder"
        local Screen = wf.controller "Screen"
        local Broken = wf.controller "Broken"
        function Broken:init() error("cannot make this") end
        wf.map:from("tt://menu/(id)", Screen, { mode = "share" })
        wf.map:from("tt://page/(id)", Screen)
        wf.map:from("tt://modal/(id)", Screen, { mode = "modal" })
        wf.map:from("tt://broken", Broken)
        wf.map:from("tt://checkout", function(route)
          local nav = wf.navigator
          nav:dismiss()
          nav:open("tt://page/paid")
          if route.query.fail then error("payment refused") end
        end, { mode = "none" })
        wf.app { name = "events", tabs = { "tt://menu/1", "tt://menu/2" }, persistence = "all" }
        """

    final class Heard {
        var events: [NavigationEvent] = []
        var changes: [NavigationChange] { events.map(\.change) }
        func take() -> [NavigationChange] {
            defer { events.removeAll() }
            return changes
        }
    }

    func observed(_ app: TestApp) -> Heard {
        let heard = Heard()
        _ = app.host.navigator.observe { heard.events.append($0) }
        return heard
    }

    @Test func scriptsNavigationIsHeardOncePerChangeAndFailuresNotAtAll() throws {
        let app = try TestApp(Self.source)
        let heard = observed(app)
        try app.host.launch()
        let tabs = NavigationSnapshot(app.host.navigator.tree)
        #expect(heard.take() == [.replacedRoot(tabs.root)])

        try app.run(#"wayfinder.navigator:open("tt://page/1")"#)
        let page = try #require(NavigationSnapshot(app.host.navigator.tree).entries(in: .tab(0))?.last)
        #expect(heard.take() == [.pushed(page, onto: .tab(0))])

        try app.run(#"wayfinder.navigator:select(2)"#)
        let menu2 = try #require(NavigationSnapshot(app.host.navigator.tree).entries(in: .tab(1))?.first)
        #expect(heard.take() == [.loaded(menu2, at: .tab(1, index: 0)), .selectedTab(1)])

        try app.run(#"wayfinder.navigator:open("tt://modal/1")"#)
        #expect(heard.changes.count == 1)
        guard case .presentedModal(let modal)? = heard.take().first else { Issue.record("no modal presented"); return }
        #expect(modal.url == "tt://modal/1")

        // Failures, from Lua's nil, reason: nothing is heard.
        let before = NavigationSnapshot(app.host.navigator.tree)
        let failures = try app.run("""
            local nav = wayfinder.navigator
            local a, why_route = nav:open("tt://nowhere")
            local b, why_constructor = nav:open("tt://broken")
            local c, why_action = nav:open { url = "tt://checkout", query = { fail = true } }
            return a == nil and b == nil and c == nil, why_action
            """)
        #expect(failures.first == .bool(true))
        #expect(failures.last?.stringValue?.contains("payment refused") == true)
        #expect(heard.events.isEmpty, "a failed open sends nothing, not even what its action navigated before it failed")
        #expect(NavigationSnapshot(app.host.navigator.tree) == before)

        // An action's own navigation comes with its open, once it has finished.
        try app.run(#"wayfinder.navigator:open("tt://checkout")"#)
        let after = NavigationSnapshot(app.host.navigator.tree)
        let paid = try #require(after.entries(in: .tab(1))?.last)
        #expect(paid.url == "tt://page/paid")
        #expect(heard.take() == [.dismissedModal, .pushed(paid, onto: .tab(1))])

        try app.run("wayfinder.navigator:back()")
        #expect(heard.take() == [.popped(count: 1, from: .tab(1))])
    }

    @Test func aRestoreIsHeardAsTheTreeReplaced() throws {
        let directory = try TemporaryDirectory()
        let store = FileStateStore(path: directory.subpath("state.json"))
        let first = try TestApp(Self.source)
        first.host.stateStore = store
        try first.host.launch()
        try first.run(#"wayfinder.navigator:open("tt://page/1"); wayfinder.navigator:open("tt://modal/1")"#)
        try first.host.persist()

        let second = try TestApp(Self.source)
        second.host.stateStore = store
        let heard = observed(second)
        try second.host.launch()
        #expect(heard.changes == [.replacedTree(.restore)])
        #expect(heard.events.last?.tree == NavigationSnapshot(second.host.navigator.tree))
        #expect(heard.events.last?.tree.modals.first?.first?.url == "tt://modal/1")

        // Restoring a state by hand is heard the same way.
        _ = heard.take()
        #expect(try second.host.restore(from: first.host.capturedState()))
        #expect(heard.changes == [.replacedTree(.restore)])
    }
}

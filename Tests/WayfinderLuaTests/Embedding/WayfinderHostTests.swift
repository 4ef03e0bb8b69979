import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// One `WayfinderHost` lives as long as the app: a hot reload and a relaunch swap the app inside
/// it, keeping its observers, handlers and store, and tell the observers the tree was replaced;
/// one that fails leaves everything as it was and tells nothing.
@Suite("The embedding host")
struct WayfinderHostTests {
    static func app(title: String = "Note") -> String {
        """
        local wf = require "wayfinder"
        local Note = wf.controller "Note"
        function Note:initWithText(text) self.text = text; print("made " .. text) end
        function Note:render() return { title = "\(title) " .. self.text } end
        function Note:appear() if self.text == "grumpy" then error("not today") end end
        wf.map:from("tt://note/(initWithText:)", Note)
        wf.app { name = "notes", root = "tt://note/home" }
        """
    }

    final class Heard {
        var events: [NavigationEvent] = []
        var external: [String] = []
        var printed: [String] = []
        var warnings: [String] = []
    }

    func host(_ heard: Heard, store: MemoryStateStore? = nil) throws -> WayfinderHost {
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": Self.app()]))
        configuration.openExternal = { heard.external.append($0) }
        configuration.printSink = { heard.printed.append($0) }
        configuration.warn = { heard.warnings.append($0) }
        configuration.stateStore = store
        let host = try WayfinderHost(configuration)
        host.observe { heard.events.append($0) }
        return host
    }

    /// A tab's title from `wf.app`, in either form, for a tab bar to show before its screen is
    /// made; none for a tab given as a bare URL.
    @Test func aTabsTitleComesFromTheAppBeforeItsScreenIsMade() throws {
        let source = Self.app().replacingOccurrences(of: #"wf.app { name = "notes", root = "tt://note/home" }"#, with: """
            wf.app { name = "notes", tabs = { { "Home", "tt://note/home" }, { url = "tt://note/b", title = "Bee" }, "tt://note/c" } }
            """)
        let host = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source])))
        try host.launch()
        guard case .tabs(let stacks, _) = host.tree.root else { Issue.record("no tabs: \(host.tree)"); return }
        #expect(stacks.map(host.tabTitle(of:)) == ["Home", "Bee", nil])
        #expect(host.controller(for: stacks[1][0]) == nil, "the second tab's screen is not made yet")
        #expect(host.tabTitle(of: []) == nil)
    }

    @Test func aReloadKeepsTheHostWithItsObserversHandlersAndStore() throws {
        let heard = Heard()
        let store = MemoryStateStore()
        let host = try host(heard, store: store)
        try host.launch()
        try host.open("tt://note/a")
        heard.events = []
        heard.printed = []
        let report = try host.reload(from: try AppSource(sources: ["app.lua": Self.app(title: "Memo")]))
        #expect(report.changes.summary == "routes: no change")
        // One event: the tree replaced, with the tree the new code shows.
        #expect(heard.events.map(\.change) == [.replacedTree(.reload)])
        #expect(heard.events.first?.tree == host.tree)
        #expect(host.tree.visible?.url == "tt://note/a")
        let visible = try #require(host.tree.visible)
        let controller = try #require(host.controller(for: visible))
        #expect(try host.render(controller)?.title == "Memo a")
        // The handlers and the store are the host's still.
        #expect(heard.printed == ["made a"])
        try host.open("mailto:ann@example.com")
        #expect(heard.external == ["mailto:ann@example.com"])
        try host.open("tt://note/grumpy")
        #expect(heard.warnings.contains { $0.contains("not today") })
        try host.persist()
        #expect(store.saved?.visibleURL == "tt://note/grumpy")
        // The observer hears the new app's navigation.
        #expect(heard.events.last?.change == .pushed(try #require(host.tree.visible), onto: .root))
    }

    @Test func aRefusedReloadLeavesEverythingAsItWas() throws {
        let heard = Heard()
        let host = try host(heard)
        try host.launch()
        let controller = try #require(try host.open("tt://note/a"))
        let before = host.tree
        heard.events = []
        let broken = try AppSource(sources: ["app.lua": "local wf = require 'wayfinder'\n\nwf.map:from(42)"])
        do {
            try host.reload(from: broken)
            Issue.record("a broken reload was taken")
        } catch {
            #expect(error.message.hasPrefix("reload failed, the app runs on unchanged: app.lua:3: "), "\(error.message)")
        }
        #expect(heard.events.isEmpty)
        #expect(host.tree == before)
        #expect(try host.field("text", of: controller) == "a")
        try host.back()
        #expect(heard.events.map(\.change) == [.popped(count: 1, from: .root)])
    }

    @Test func aRelaunchRestoresWhatTheStoreKeptInTheSameHost() throws {
        let heard = Heard()
        let store = MemoryStateStore()
        let host = try host(heard, store: store)
        try host.launch()
        try host.open("tt://note/a")
        try host.open("tt://note/b")
        heard.events = []
        heard.printed = []
        try host.relaunch()
        #expect(heard.events.map(\.change) == [.replacedTree(.relaunch)])
        #expect(host.tree.visible?.url == "tt://note/b")
        #expect(host.tree.entries(in: .root)?.map(\.url) == ["tt://note/home", "tt://note/a", "tt://note/b"])
        // Only the visible screen was made again; the others wait until they are seen.
        #expect(heard.printed == ["made b"])
        #expect(host.tree.entries(in: .root)?.map(\.isLoaded) == [false, false, true])
        // The relaunched app warns, prints and opens outside through the host's handlers.
        try host.open("tt://note/grumpy")
        #expect(heard.warnings.contains { $0.contains("not today") })
        #expect(heard.printed == ["made b", "made grumpy"])
        try host.open("tel:123")
        #expect(heard.external == ["tel:123"])
    }

    @Test func aRelaunchThatCannotLoadLeavesTheRunningApp() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app())
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: directory.path))
        configuration.printSink = { _ in }
        configuration.stateStore = MemoryStateStore()
        let host = try WayfinderHost(configuration)
        let heard = Heard()
        host.observe { heard.events.append($0) }
        try host.launch()
        try host.open("tt://note/a")
        let before = host.tree
        heard.events = []
        try directory.write("app.lua", "local wf = require 'wayfinder'\nerror('half-saved')")
        let message = thrownMessage { try host.relaunch() }
        #expect(message == "app.lua:2: half-saved")
        #expect(host.tree == before)
        #expect(heard.events.isEmpty)
        try host.back()
        #expect(heard.events.count == 1)
    }

    @Test func observersMayNotNavigateWhileTheyAreToldOfAReplacedApp() throws {
        let heard = Heard()
        let host = try host(heard)
        try host.launch()
        var refusals: [String] = []
        host.observe { event in
            guard case .replacedTree = event.change else { return }
            refusals.append(thrownMessage { try host.open("tt://note/x") } ?? "opened")
            refusals.append(thrownMessage { try host.reload() } ?? "reloaded")
        }
        try host.reload()
        #expect(refusals.count == 2)
        #expect(refusals.allSatisfy { $0.contains("while the navigator is busy with telling observers of a change") }, "\(refusals)")
        #expect(host.tree.visible?.url == "tt://note/home")
    }

    @Test func aRemovedObserverHearsNothingMoreAcrossAReload() throws {
        let heard = Heard()
        let host = try host(heard)
        let other = Heard()
        let token = host.observe { other.events.append($0) }
        try host.launch()
        #expect(other.events.count == 1)
        #expect(host.removeObserver(token))
        #expect(!host.removeObserver(token))
        try host.reload()
        try host.open("tt://note/a")
        #expect(other.events.count == 1)
        #expect(heard.events.count == 3)
    }
}

/// Swift counts tabs one way: `selectTab(at:)` takes the index events and snapshots carry.
@Suite("The embedding host's tab numbering")
struct HostTabNumberingTests {
    @Test func selectTabTakesTheIndexEventsAndSnapshotsCarry() throws {
        let source = WayfinderHostTests.app().replacingOccurrences(of: #"wf.app { name = "notes", root = "tt://note/home" }"#, with: """
            wf.app { name = "notes", tabs = { "tt://note/a", "tt://note/b", "tt://note/c" } }
            """)
        let host = try WayfinderHost(WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": source])))
        try host.launch()
        var heard: [NavigationChange] = []
        host.observe { heard.append($0.change) }
        #expect(try host.selectTab(at: 2))
        guard case .tabs(let stacks, let selected) = host.tree.root else { Issue.record("no tabs: \(host.tree)"); return }
        #expect(selected == 2)
        #expect(stacks[selected].first?.url == "tt://note/c")
        #expect(heard.contains { if case .selectedTab(2) = $0 { true } else { false } }, "\(heard)")
        #expect(try host.selectTab(at: 0))
        guard case .tabs(_, let first) = host.tree.root else { return }
        #expect(first == 0)
        heard.removeAll()
        let before = host.tree
        for index in [-1, 3, Int.min, Int.max] {
            #expect(try !host.selectTab(at: index), "tab \(index)")
        }
        #expect(host.tree == before)
        #expect(heard.isEmpty)
    }
}

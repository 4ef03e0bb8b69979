import Foundation
import Testing
import TestSupport
import Wayfinder
@testable import WayfinderLua

/// The host's events at the level an embedder sees them: a presenter that keeps its own model of
/// the tree and changes it only as events say stays equal to `host.tree` after every step of
/// seeded random sessions: opens of every mode (native screens among them), opens that fail,
/// actions that navigate and that fail after navigating, back, dismiss, tabs, restores, hot
/// reloads that succeed and that are refused, and relaunches from the state store. A step that
/// fails or changes nothing sends no event.
@Suite("Host events")
struct HostEventPropertyTests {
    /// A presenter as an app would write one: screens by entry, changed by events alone.
    final class Mirror {
        private(set) var root = NavigationSnapshot.Root.stack([])
        private(set) var modals: [[NavigationSnapshot.Entry]] = []
        private(set) var popover: NavigationSnapshot.Entry?
        private(set) var heard: [NavigationChange] = []
        private(set) var faults: [String] = []

        var tree: NavigationSnapshot { NavigationSnapshot(root: root, modals: modals, popover: popover) }

        func apply(_ event: NavigationEvent) {
            heard.append(event.change)
            switch event.change {
            case .pushed(let entry, let stack):
                change(stack) { $0.append(entry) }
            case .popped(let count, let stack):
                change(stack) { entries in
                    guard count >= 1, count <= entries.count else { return faults.append("popped \(count) of \(entries.count)") }
                    entries.removeLast(count)
                }
            case .presentedModal(let entry):
                modals.append([entry])
            case .dismissedModal:
                if modals.isEmpty { faults.append("dismissed no modal") } else { modals.removeLast() }
            case .showedPopover(let entry):
                if popover != nil { faults.append("a popover over another") }
                popover = entry
            case .closedPopover:
                if popover == nil { faults.append("closed no popover") }
                popover = nil
            case .selectedTab(let index):
                guard case .tabs(let tabs, _) = root, tabs.indices.contains(index) else { return faults.append("selected tab \(index)") }
                root = .tabs(tabs, selected: index)
            case .replacedRoot(let newRoot):
                root = newRoot
            case .loaded(let entry, let location):
                switch location {
                case .popover: popover = entry
                case .root(let index): change(.root) { $0[index] = entry }
                case .tab(let tab, let index): change(.tab(tab)) { $0[index] = entry }
                case .modal(let modal, let index): change(.modal(modal)) { $0[index] = entry }
                }
            case .replacedTree:
                root = event.tree.root
                modals = event.tree.modals
                popover = event.tree.popover
            }
            if tree != event.tree { faults.append("after \(event.change) the event's tree is not the mirror's") }
        }

        func forget() { heard = [] }

        private func change(_ stack: NavigationSnapshot.StackLocation, _ body: (inout [NavigationSnapshot.Entry]) -> Void) {
            switch (stack, root) {
            case (.root, .stack(var entries)):
                body(&entries)
                root = .stack(entries)
            case (.tab(let index), .tabs(var tabs, let selected)) where tabs.indices.contains(index):
                body(&tabs[index])
                root = .tabs(tabs, selected: selected)
            case (.modal(let index), _) where modals.indices.contains(index):
                body(&modals[index])
            default:
                faults.append("no stack \(stack)")
            }
        }
    }

    final class Lens: NativeScreen {
        let id: String
        init(_ request: NativeScreenRequest) { id = request.params["id"]?.stringValue ?? "?" }
        var title: String? { "Lens " + id }
    }

    static func app(title: String = "Page") -> String {
        """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithId(id) self.id = id end
        function Page:render() return { title = "\(title) " .. self.id } end
        function Page:persist(state) state.id = self.id end
        local Boom = wf.controller "Boom"
        function Boom:init() error("boom") end
        wf.map:from("tt://page/(initWithId:)", Page)
        wf.map:from("tt://shared/(initWithId:)", Page, { mode = "share" })
        wf.map:from("tt://modal/(initWithId:)", Page, { mode = "modal" })
        wf.map:from("tt://pop/(initWithId:)", Page, { mode = "popover" })
        wf.map:from("tt://child/(initWithId:)", Page, { parent = "tt://shared/b" })
        wf.map:from("tt://lens/(id)", wf.native "Lens", { mode = "modal" })
        wf.map:from("tt://boom", Boom)
        wf.map:from("tt://jump", function() assert(wf.navigator:open("tt://page/j")); return {} end, { mode = "none" })
        wf.map:from("tt://jumpfail", function() assert(wf.navigator:open("tt://modal/k")); error("no") end, { mode = "none" })
        wf.map:from("tt://home", function() while wf.navigator:dismiss() do end; return {} end, { mode = "none" })
        wf.map:from("tt://retab", function() assert(wf.navigator:tabs { "tt://shared/a", "tt://shared/d" }); return {} end, { mode = "none" })
        wf.app { name = "events", tabs = { "tt://shared/a", "tt://shared/b", "tt://shared/c" } }
        """
    }

    static let urls = [
        "tt://page/1", "tt://page/2", "tt://shared/a", "tt://shared/b", "tt://shared/c", "tt://modal/m", "tt://modal/n",
        "tt://pop/p", "tt://pop/q", "tt://child/x", "tt://lens/1", "tt://lens/2", "tt://jump", "tt://home", "tt://retab",
        // These fail: no route, a constructor's error, an action that navigates and then fails.
        "tt://nowhere", "tt://boom", "tt://jumpfail",
    ]

    /// What the sessions did, to show they reached what they are meant to.
    final class Tally {
        var failedSteps = 0
        var refusedReloads = 0
        var changes: Set<String> = []
    }

    @Test(arguments: 1...30)
    func aMirrorFollowsTheHostThroughARandomSession(seed: Int) throws {
        let tally = Tally()
        try session(seed: UInt64(seed), steps: 60, tally: tally)
    }

    @Test func theSessionsReachEveryKindOfStep() throws {
        let tally = Tally()
        for seed in 1...30 { try session(seed: UInt64(seed), steps: 60, tally: tally) }
        #expect(tally.failedSteps > 40)
        #expect(tally.refusedReloads > 5)
        for kind in ["pushed", "popped", "presentedModal", "dismissedModal", "showedPopover", "closedPopover", "selectedTab",
                     "replacedRoot", "loaded", "replacedTree(reload)", "replacedTree(relaunch)", "replacedTree(restore)"] {
            #expect(tally.changes.contains(kind), "no session sent \(kind)")
        }
    }

    func session(seed: UInt64, steps: Int, tally: Tally) throws {
        var random = SeededGenerator(seed: seed)
        let store = MemoryStateStore()
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": Self.app()]))
        configuration.stateStore = store
        configuration.nativeScreens = ["Lens": { Lens($0) }]
        configuration.warn = { _ in }
        configuration.limits = LuaLimits(memoryBytes: 32 << 20, timeBudget: .seconds(5))
        let host = try WayfinderHost(configuration)
        let mirror = Mirror()
        host.observe(mirror.apply)
        try host.launch()
        #expect(mirror.tree == host.tree)
        var log: [String] = ["launch"]
        for _ in 0..<steps {
            let before = host.tree
            mirror.forget()
            var failed = false
            var step = ""
            do {
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<45:
                    let url = Self.urls.randomElement(using: &random)!
                    step = "open \(url)"
                    try host.open(url)
                case 45..<57:
                    step = "back"
                    try host.back()
                case 57..<65:
                    step = "dismiss"
                    try host.dismiss()
                case 65..<73:
                    let index = Int.random(in: 0...3, using: &random)
                    step = "select \(index)"
                    try host.selectTab(at: index)
                case 73..<80:
                    let title = ["Page", "Sheet"].randomElement(using: &random)!
                    step = "reload (\(title))"
                    try host.reload(from: try AppSource(sources: ["app.lua": Self.app(title: title)]))
                case 80..<86:
                    step = "reload a mistake"
                    do {
                        try host.reload(from: try AppSource(sources: ["app.lua": Self.app() + "\nwf.map:from('tt://page/(x)', {})"]))
                        Issue.record("a reload with a conflicting route was taken")
                    } catch {
                        tally.refusedReloads += 1
                        throw error
                    }
                case 86..<93:
                    step = "relaunch"
                    try host.relaunch()
                default:
                    step = "persist and restore"
                    try host.persist()
                    try host.restore()
                }
            } catch {
                failed = true
                tally.failedSteps += 1
                step += " failed: \(error)"
            }
            log.append(step)
            let context = "seed \(seed), \(log.suffix(6).joined(separator: "; "))"
            #expect(mirror.faults.isEmpty, "\(mirror.faults) — \(context)")
            #expect(mirror.tree == host.tree, "\(context)")
            if failed {
                // A failed step changes nothing and says nothing.
                #expect(mirror.heard.isEmpty, "\(mirror.heard) — \(context)")
                #expect(host.tree == before, "\(context)")
            }
            if host.tree == before && !mirror.heard.contains(where: { if case .replacedTree = $0 { true } else { false } }) {
                #expect(mirror.heard.isEmpty, "nothing changed, yet \(mirror.heard) — \(context)")
            }
            for change in mirror.heard { tally.changes.insert(Self.kind(change)) }
            guard mirror.faults.isEmpty, mirror.tree == host.tree else { return }
        }
    }

    static func kind(_ change: NavigationChange) -> String {
        switch change {
        case .pushed: "pushed"
        case .popped: "popped"
        case .presentedModal: "presentedModal"
        case .dismissedModal: "dismissedModal"
        case .showedPopover: "showedPopover"
        case .closedPopover: "closedPopover"
        case .selectedTab: "selectedTab"
        case .replacedRoot: "replacedRoot"
        case .loaded: "loaded"
        case .replacedTree(let why): "replacedTree(\(why))"
        }
    }
}

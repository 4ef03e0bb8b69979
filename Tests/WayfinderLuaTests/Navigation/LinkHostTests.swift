import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// Links from outside, guards, pending opens and presentation verbs through the Swift host API
/// (`AppHost.navigator` and its `handleLink`), with the state in a file and the host's clock.
@Suite("Links, guards and presentations from Swift")
struct LinkHostTests {
    static let desk = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/desk").path

    /// The desk app, launched with its state in `state` and its clock reading `now`.
    final class Desk {
        let host: AppHost
        var warnings: [String] = []
        init(state: String, now: Date) throws {
            host = try AppHost(path: LinkHostTests.desk, limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300)), printSink: { _ in })
            host.warn = { [unowned self] in warnings.append($0) }
            host.clock = { now }
            host.stateStore = FileStateStore(path: state)
            try host.launch()
        }
        var stack: [String] {
            guard case .stack(let stack) = host.navigator.tree.root else { return [] }
            return stack.entries.map(\.url)
        }
    }

    let directory: TemporaryDirectory
    let state: String
    let start = Date(timeIntervalSince1970: 2_000_000_000)

    init() throws {
        directory = try TemporaryDirectory()
        state = directory.subpath("desk.json")
    }

    @Test func handleLinkOpensExternalRoutesOnlyAndLandsOnTheRestoredTree() throws {
        let first = try Desk(state: state, now: start)
        try first.host.navigator.open("tt://page/a")
        try first.host.persist()
        let second = try Desk(state: state, now: start)
        #expect(throws: NavigationError.notExternal("tt://settings", reason: "its route 'tt://settings' is not marked external")) {
            try second.host.navigator.handleLink("tt://settings")
        }
        let made = try second.host.navigator.handleLink("tt://page/b")
        #expect(made === second.host.navigator.top)
        #expect(second.stack == ["tt://home", "tt://page/a", "tt://page/b"])
    }

    @Test func aPendingLinkIsSavedWithTheStateAndOpensAfterSignInOnTheNextLaunch() throws {
        let first = try Desk(state: state, now: start)
        try first.host.navigator.handleLink("tt://order/7")
        #expect(first.host.navigator.url == "tt://signin?for=tt%3A%2F%2Forder%2F7")
        try first.host.persist()
        let saved = try #require(try NavigationState(document: JSON.decode(String(contentsOfFile: state, encoding: .utf8))).pending)
        #expect(saved == NavigationState.Pending(url: "tt://order/7", fromOutside: true, since: start))

        let second = try Desk(state: state, now: start.addingTimeInterval(600))
        let pending = try #require(second.host.navigator.pendingOpen)
        #expect(pending.request.url == "tt://order/7" && pending.request.fromOutside && pending.since == start)
        try second.host.navigator.open("tt://signin/as/ann")
        #expect(second.host.navigator.url == "tt://order/7")
        #expect(second.host.navigator.pendingOpen == nil)
        #expect(second.warnings.isEmpty, "\(second.warnings)")
    }

    @Test func aPendingLinkOlderThanItsExpirationByTheHostsClockIsNotBroughtBack() throws {
        let first = try Desk(state: state, now: start)
        try first.host.navigator.handleLink("tt://order/7")
        try first.host.persist()
        let second = try Desk(state: state, now: start.addingTimeInterval(3601))
        #expect(second.host.navigator.pendingOpen == nil)
        #expect(second.warnings == ["dropped the pending 'tt://order/7': it waited longer than 3600 s"])
        #expect(second.host.navigator.url?.hasPrefix("tt://signin") == true, "the tree itself does not expire")
    }

    @Test func aStateWhosePendingLinkIsDamagedIsSetAsideAndOneThatCannotOpenIsDropped() throws {
        let entries = #""mode":"all","root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://page/a"}]},"modals":[],"#
        let head = #"{"format":"wayfinder.navigation","version":1,"app":"desk","app_version":1,"saved_at":"2033-05-18T03:33:20Z","#
        let damaged = head + entries + #""pending":{"url":"tt://order/4","since":"soon"}}"#
        try damaged.write(toFile: state, atomically: true, encoding: .utf8)
        let fresh = try Desk(state: state, now: start)
        #expect(fresh.stack == ["tt://home"])
        #expect(fresh.warnings.count == 1 && fresh.warnings[0].hasPrefix(
            "the saved navigation state could not be read (pending.since: 'soon' is not a time such as 2026-01-01T00:00:00Z); it was moved to "), "\(fresh.warnings)")
        let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("desk.json.corrupt-") })
        #expect(try String(contentsOfFile: directory.subpath(aside), encoding: .utf8) == damaged)

        try (head + entries + #""pending":{"url":"tt://settings","link":true,"since":"2033-05-18T03:30:00Z"}}"#).write(toFile: state, atomically: true, encoding: .utf8)
        let restored = try Desk(state: state, now: start)
        #expect(restored.stack == ["tt://home", "tt://page/a"])
        #expect(restored.host.navigator.pendingOpen == nil)
        #expect(restored.warnings == ["dropped the pending 'tt://settings': cannot open 'tt://settings' from outside the app: its route 'tt://settings' is not marked external"])
    }

    @Test func aGuardThatRaisesFailsTheOpenWithTheScriptsLine() throws {
        let desk = try Desk(state: state, now: start)
        let before = desk.host.navigator.tree.snapshot
        #expect {
            try desk.host.navigator.open("tt://broken")
        } throws: { error in
            "\(error)".range(of: #"app\.lua:\d+: the guard broke"#, options: .regularExpression) != nil
        }
        #expect(desk.host.navigator.tree.snapshot == before)
    }

    @Test func refreshMakesTheVisibleLuaControllerAgainWithItsSavedState() throws {
        let desk = try Desk(state: state, now: start)
        try desk.host.navigator.open("tt://counter")
        try desk.host.navigator.open("tt://bump")
        let old = try #require(desk.host.navigator.top)
        let fresh = try #require(try desk.host.navigator.open(NavigationRequest(url: "tt://counter", presentation: .refresh)))
        #expect(fresh !== old)
        #expect(try desk.host.bridge.render(fresh)?.lines == ["count 1", "made 2"])
        #expect(desk.stack == ["tt://home", "tt://counter"])
    }

    @Test(arguments: LinkCLITests.verbs)
    func everyVerbWorksThroughTheHostAndTheTreeItLeavesIsSaved(verb: String, stack: [String]) throws {
        let desk = try Desk(state: state, now: start)
        for url in ["tt://shelf/s", "tt://page/a", "tt://page/b"] { try desk.host.navigator.open(url) }
        let before = desk.host.constructedCount
        if verb == "share" {
            try desk.host.navigator.open("tt://shelf/s")
        } else {
            let presentation: Presentation? = Presentation.allCases.first { $0.rawValue == verb }
            #expect(presentation != nil, "a verb the host lists")
            try desk.host.navigator.open(NavigationRequest(url: "tt://page/c", presentation: presentation))
        }
        #expect(desk.stack == stack)
        #expect(desk.host.constructedCount - before == (["none", "share"].contains(verb) ? 0 : 1), "refresh makes the visible screen again")
        try desk.host.persist()
        let again = try Desk(state: state, now: start)
        #expect(again.stack == stack)
        #expect(again.host.navigator.url == stack.last)
    }

    @Test func theRestaurantLinksAContactGuardsAnOrderReplacesAStepAndStartsOver() throws {
        func launched() throws -> AppHost {
            let host = try AppHost(path: LinkCLITests.restaurant, limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300)), printSink: { _ in })
            host.clock = { [start] in start }
            host.stateStore = FileStateStore(path: state)
            try host.launch()
            return host
        }
        func tab(_ host: AppHost, _ number: Int) -> [String] {
            guard case .tabs(let tabs, _) = host.navigator.tree.root else { return [] }
            return tabs[number - 1].entries.map(\.url)
        }
        let alice = "tt://contact/" + LinkCLITests.contact("p3")
        let host = try launched()
        try host.navigator.open("tt://food/porridge")
        try host.navigator.handleLink(alice)
        #expect(tab(host, 1) == ["tt://menu/1", "tt://food/porridge", alice])
        #expect(throws: NavigationError.notExternal("tt://order/food", reason: "its route 'tt://order/food' is not marked external")) {
            try host.navigator.handleLink("tt://order/food")
        }
        try host.navigator.open("tt://order?waitress=Betty")
        try host.navigator.open("tt://order/send?items=pizza")
        #expect(host.navigator.url == "tt://signin")
        try host.persist()
        let again = try launched()
        #expect(again.navigator.pendingOpen?.request.url == "tt://order/send?items=pizza")
        try again.navigator.open("tt://signin/as/" + LinkCLITests.contact("p1"))
        #expect(again.navigator.pendingOpen == nil && again.navigator.tree.modals.isEmpty, "the order went and its flow closed")
        #expect(try again.navigator.select(tabNumber: 6))
        try again.navigator.open("tt://contact/" + LinkCLITests.contact("p1"))
        try again.navigator.open("tt://contacts/next/" + LinkCLITests.contact("p3"))
        #expect(tab(again, 6) == ["tt://contacts", alice], "the next person took the place of the one on screen")
        #expect(try again.navigator.select(tabNumber: 1))
        try again.navigator.open("tt://order?waitress=Betty")
        try again.navigator.open("tt://food/pizza")
        try again.navigator.open("tt://order/startover?waitress=Betty")
        #expect(tab(again, 1) == ["tt://menu/1"])
        #expect(again.navigator.tree.modals.map { $0.entries.map(\.url) } == [["tt://order?waitress=Betty"]])
    }

    @Test func routeReportsAndSnapshotsNameThePresentationAndTheGuard() throws {
        let desk = try Desk(state: state, now: start)
        let reports = try desk.host.routeReports()
        let wizard = try #require(reports.first { $0.pattern.text == "tt://wizard/(step:int)" })
        #expect(wizard.json["presentation"] == "replace" && wizard.json["guard"] == false)
        let order = try #require(reports.first { $0.pattern.text == "tt://order/(n:int)" })
        #expect(order.json["presentation"] == "push" && order.json["guard"] == true)
        let lines = RouteSnapshot(reports).lines
        #expect(lines.first { $0.pattern == "tt://wizard/(step:int)" }?.text.contains("  presentation=replace") == true)
        #expect(lines.first { $0.pattern == "tt://order/(n:int)" }?.text.hasSuffix("  external  guard") == true)
        #expect(lines.first { $0.pattern == "tt://home" }?.text.contains("presentation") == false)
    }

    @Test func theEmbeddingHostReachesTheLinkDoorTheVerbsAndTheWaitingOpen() throws {
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: Self.desk))
        let store = MemoryStateStore()
        configuration.stateStore = store
        configuration.warn = { _ in }
        let host = try WayfinderHost(configuration)
        try host.launch()
        var heard: [NavigationChange] = []
        _ = host.observe { heard.append($0.change) }
        #expect(throws: NavigationError.notExternal("tt://settings", reason: "its route 'tt://settings' is not marked external")) {
            try host.handleLink("tt://settings")
        }
        #expect(throws: NavigationError.notExternal("tt://nowhere", reason: "no route matches, so it is no screen of the app")) {
            try host.handleLink("tt://nowhere")
        }
        try host.handleLink("tt://order/2")
        #expect(host.pendingOpen?.request.url == "tt://order/2" && host.pendingOpen?.request.fromOutside == true)
        try host.relaunch()
        #expect(host.pendingOpen?.request.url == "tt://order/2", "saved with the state")
        heard.removeAll()
        try host.open("tt://signin/as/ann")
        #expect(host.tree.visible?.url == "tt://order/2")
        #expect(host.pendingOpen == nil)
        #expect(heard.last.map { if case .pushed(let entry, _) = $0 { entry.url == "tt://order/2" } else { false } } == true,
                "observers hear the waiting open go through")
        try host.open(NavigationRequest(url: "tt://page/a", presentation: .push))
        try host.replace("tt://page/b")
        guard case .stack(let entries) = host.tree.root else { Issue.record("a stack"); return }
        #expect(entries.map(\.url) == ["tt://home", "tt://order/2", "tt://page/b"])
        #expect(try host.popToRoot())
        #expect(host.tree.visible?.url == "tt://home")
    }
}

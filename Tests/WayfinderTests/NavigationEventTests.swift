import Testing
@testable import Wayfinder

/// Records what a navigator's observer hears, and the navigator's own tree as the observer
/// read it while hearing each event.
final class EventLog {
    private(set) var events: [NavigationEvent] = []
    private(set) var treesRead: [NavigationSnapshot] = []
    let token: NavigationObserverToken

    init<Target>(_ navigator: Navigator<Target, Screen>) {
        var record: (NavigationEvent) -> Void = { _ in }
        token = navigator.observe { record($0) }
        record = { [unowned self, unowned navigator] event in
            events.append(event)
            treesRead.append(NavigationSnapshot(navigator.tree))
        }
    }

    var changes: [NavigationChange] { events.map(\.change) }

    /// The changes heard since the last call.
    func take() -> [NavigationChange] {
        defer {
            events.removeAll()
            treesRead.removeAll()
        }
        return changes
    }
}

extension NavigationSnapshot {
    /// The URLs of a stack's entries, bottom first.
    func urls(_ stack: StackLocation) -> [String]? { entries(in: stack)?.map(\.url) }
}

/// The entry of `snapshot` at the top of a stack, for building expected changes.
private func top(_ snapshot: NavigationSnapshot, _ stack: NavigationSnapshot.StackLocation) throws -> NavigationSnapshot.Entry {
    try #require(snapshot.entries(in: stack)?.last)
}

@Suite("Navigation events")
struct NavigationEventTests {
    @Test func anOpenPushesAndBackPops() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let log = EventLog(h.navigator)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://food/cake")
        let after = NavigationSnapshot(h.navigator.tree)
        let pie = try #require(after.entries(in: .root)?.first)
        let cake = try top(after, .root)
        #expect(pie.url == "tt://food/pie" && pie.isLoaded)
        #expect(log.take() == [.pushed(pie, onto: .root), .pushed(cake, onto: .root)])
        try h.navigator.back()
        #expect(log.changes == [.popped(count: 1, from: .root)])
        #expect(log.events.last?.tree == NavigationSnapshot(h.navigator.tree))
        #expect(log.events.last?.tree.urls(.root) == ["tt://food/pie"])
    }

    @Test func aShareOpenLowerInTheStackPopsSeveralAtOnce() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://menu/3")
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        let log = EventLog(h.navigator)
        try h.navigator.open("tt://menu/3")
        #expect(log.changes == [.popped(count: 2, from: .root)])
    }

    @Test func modalsArePresentedAndDismissed() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        let log = EventLog(h.navigator)
        try h.navigator.open("tt://order?waitress=Ann")
        let modal = try top(NavigationSnapshot(h.navigator.tree), .modal(0))
        try h.navigator.open("tt://food/inside")
        let inside = try top(NavigationSnapshot(h.navigator.tree), .modal(0))
        #expect(log.take() == [.presentedModal(modal), .pushed(inside, onto: .modal(0))])
        #expect(try h.navigator.dismiss())
        #expect(log.take() == [.dismissedModal])
        #expect(NavigationSnapshot(h.navigator.tree).modals.isEmpty)
    }

    @Test func aPopoverIsShownReplacedAndClosed() throws {
        let h = try NavigatorHarness(restaurantRoutes + [("tt://tip", RouteOptions(mode: .popover))])
        try h.navigator.open("tt://food/pie")
        let log = EventLog(h.navigator)
        try h.navigator.open("tt://confirm")
        let confirm = try #require(NavigationSnapshot(h.navigator.tree).popover)
        #expect(log.take() == [.showedPopover(confirm)])
        try h.navigator.open("tt://tip")
        let tip = try #require(NavigationSnapshot(h.navigator.tree).popover)
        #expect(log.take() == [.closedPopover, .showedPopover(tip)], "one popover at a time: the old one closes first")
        try h.navigator.back()
        #expect(log.take() == [.closedPopover])
        // A push over a popover closes it first, in its own change.
        try h.navigator.open("tt://confirm")
        _ = log.take()
        try h.navigator.open("tt://food/cake")
        #expect(log.changes.count == 2)
        #expect(log.changes.first == .closedPopover)
        #expect(log.events.first?.tree.popover == nil)
        #expect(log.events.first?.tree.urls(.root) == ["tt://food/pie"], "the tree after the popover closed, before the push")
    }

    @Test func settingTabsReplacesTheRootAndSelectingATabMakesItsScreenFirst() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://order?waitress=Ann")
        let log = EventLog(h.navigator)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        let tabs = NavigationSnapshot(h.navigator.tree)
        #expect(log.take() == [.dismissedModal, .replacedRoot(tabs.root)])
        #expect(tabs.entries(in: .tab(1))?.first?.isLoaded == false, "only the visible tab is made")

        #expect(try h.navigator.select(1))
        let selected = NavigationSnapshot(h.navigator.tree)
        let menu2 = try top(selected, .tab(1))
        #expect(menu2.isLoaded)
        #expect(log.changes == [.loaded(menu2, at: .tab(1, index: 0)), .selectedTab(1)])
        #expect(log.events.first?.tree.selectedTab == 0, "made before it is shown")
        #expect(log.events.last?.tree == selected)
        _ = log.take()
        #expect(try h.navigator.select(0))
        #expect(log.take() == [.selectedTab(0)])
    }

    @Test func aTabWhoseScreensNoLongerOpenIsRemovedAsARootChange() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        h.navigator.warn = { _ in }
        try h.navigator.setTabs(["tt://menu/1", "tt://food/x"])
        h.routes.remove("tt://food/(name)")
        h.routes.remove("*")
        let log = EventLog(h.navigator)
        #expect(try h.navigator.select(1))
        let after = NavigationSnapshot(h.navigator.tree)
        #expect(after.root == .tabs([[try top(after, .tab(0))]], selected: 0))
        #expect(log.changes == [.replacedRoot(after.root)])
    }

    @Test func restoringAndReloadingReplaceTheTree() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        try h.navigator.open("tt://food/pie")
        let saved = h.navigator.tree.captured(mode: .all) { _, _ in ControllerRecord() }.state
        try h.navigator.open("tt://order?waitress=Ann")
        let log = EventLog(h.navigator)
        #expect(try h.navigator.restore(saved))
        let restored = NavigationSnapshot(h.navigator.tree)
        #expect(log.take() == [.replacedTree(.restore)])
        #expect(log.events.isEmpty)
        #expect(restored.urls(.tab(0)) == ["tt://menu/1", "tt://food/pie"])
        #expect(restored.entries(in: .tab(0))?.map(\.isLoaded) == [false, true], "only the visible entry is made")

        #expect(try h.navigator.restore(saved, as: .reload))
        #expect(log.changes == [.replacedTree(.reload)])
        #expect(log.events.first?.tree == NavigationSnapshot(h.navigator.tree))
    }

    @Test func oneOpenThatChangesSeveralThingsSendsThemInOrderEachWithItsTree() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/5"])
        try h.navigator.select(1)
        try h.navigator.open("tt://food/pie")
        try h.navigator.select(0)
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://confirm")
        let log = EventLog(h.navigator)
        // The parent is in tab 2 under another screen: everything above it goes, its tab is
        // selected, its stack popped back to it, and the new screen pushed.
        try h.navigator.open("tt://about/hours")
        let after = NavigationSnapshot(h.navigator.tree)
        let hours = try top(after, .tab(1))
        #expect(log.changes == [.closedPopover, .dismissedModal, .selectedTab(1), .popped(count: 1, from: .tab(1)),
                                .pushed(hours, onto: .tab(1))])
        let trees = log.events.map(\.tree)
        #expect(trees[0].popover == nil && trees[0].modals.count == 1)
        #expect(trees[1].modals.isEmpty && trees[1].selectedTab == 0)
        #expect(trees[2].selectedTab == 1 && trees[2].urls(.tab(1)) == ["tt://menu/5", "tt://food/pie"])
        #expect(trees[3].urls(.tab(1)) == ["tt://menu/5"])
        #expect(trees[4] == after)
        #expect(log.treesRead == Array(repeating: after, count: 5), "an observer reading the navigator sees the committed tree")
    }

    @Test func anActionsOwnNavigationIsPartOfItsOpen() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://order?waitress=Betty")
        try h.navigator.open("tt://confirm")
        h.whileMaking["tt://send"] = { navigator in
            try navigator.dismiss()
            try navigator.dismiss()
            try navigator.open("tt://food/after")
        }
        let log = EventLog(h.navigator)
        try h.navigator.open("tt://send")
        let after = NavigationSnapshot(h.navigator.tree)
        #expect(log.changes == [.closedPopover, .dismissedModal, .pushed(try top(after, .root), onto: .root)])
        #expect(log.treesRead.allSatisfy { $0 == after }, "nothing is told before the whole open is done")
    }

    @Test func aFailedOpenSendsNothing() throws {
        let h = try NavigatorHarness(restaurantRoutes.filter { $0.0 != "*" })
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/5"])
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://order?waitress=Ann")
        let log = EventLog(h.navigator)
        let before = NavigationSnapshot(h.navigator.tree)
        h.failOn = ["tt://food/broken", "tt://menu/5", "tt://send"]
        h.navigator.delegate.shouldOpen = { $0 != "tt://food/banned" }
        h.whileMaking["tt://send"] = { navigator in
            try navigator.dismiss()
            try navigator.open("tt://food/elsewhere")
        }
        for url in ["tt://food/broken", "tt://nowhere", "tt://food/%zz", "tt://about/hours", "tt://food/banned", "tt://send"] {
            #expect(throws: NavigationError.self, "\(url)") { try h.navigator.open(url) }
        }
        #expect(throws: NavigationError.self) { try h.navigator.setTabs(["tt://menu/1", "tt://nowhere"]) }
        #expect(log.events.isEmpty)
        #expect(NavigationSnapshot(h.navigator.tree) == before)
    }

    @Test func aFailedOpenUnmakesTheRestoredScreenItMade() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://menu/5")
        try h.navigator.open("tt://food/pie")
        let saved = h.navigator.tree.captured(mode: .all) { _, _ in ControllerRecord(state: "kept") }.state
        try h.navigator.restore(saved)
        var left: [String] = []
        h.navigator.factory.leave = { left.append($0.url) }
        h.navigator.factory.handleFragment = { _, match in
            if match.fragment == "boom" { throw NavigationError.controllerFailed(match.url.text, reason: "fragment refused") }
        }
        let log = EventLog(h.navigator)
        let before = NavigationSnapshot(h.navigator.tree)
        #expect(before.entries(in: .root)?.map(\.isLoaded) == [false, true])
        // The parent is made to be brought forward, then the child's constructor fails; and a
        // fragment for it is refused once it is made.
        h.failOn = ["tt://about/hours"]
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://about/hours") }
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://menu/5#boom") }
        #expect(h.made.filter { $0 == "tt://menu/5" }.count == 3, "made for each attempt, and taken back")
        #expect(left == ["tt://menu/5", "tt://menu/5"])
        #expect(NavigationSnapshot(h.navigator.tree) == before)
        #expect(log.events.isEmpty)
        // The entry kept what it was restored with for when it is made for good.
        try h.navigator.back()
        let menu = try #require(h.navigator.top)
        #expect(menu.state == "kept")
        #expect(log.changes == [.loaded(try top(NavigationSnapshot(h.navigator.tree), .root), at: .root(index: 0)),
                                .popped(count: 1, from: .root)])
    }

    @Test func anOperationThatChangesNothingSendsNothing() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        let log = EventLog(h.navigator)
        #expect(try !h.navigator.back())
        #expect(try !h.navigator.dismiss())
        #expect(try h.navigator.select(0))
        #expect(try !h.navigator.select(7))
        try h.navigator.open("tt://menu/1")
        try h.navigator.open("tel:555")
        try h.navigator.open("tt://send")
        #expect(log.events.isEmpty)
    }

    @Test func observersAreCalledInOrderAndRemovedByToken() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        var heard: [String] = []
        let first = h.navigator.observe { heard.append("first \($0.change)") }
        let second = h.navigator.observe { heard.append("second \($0.change)") }
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://food/inside")
        #expect(heard.count == 4)
        #expect(heard[0].hasPrefix("first presentedModal") && heard[1].hasPrefix("second presentedModal"))
        #expect(h.navigator.removeObserver(first))
        #expect(!h.navigator.removeObserver(first), "removed already")
        let other = try NavigatorHarness(restaurantRoutes)
        #expect(!other.navigator.removeObserver(second), "a token names an observer of its own navigator only")
        try h.navigator.back()
        #expect(heard.count == 5 && heard[4].hasPrefix("second popped"))
        #expect(h.navigator.removeObserver(second))
        try h.navigator.dismiss()
        #expect(heard.count == 5)
    }

    @Test func anObserverRemovedDuringABatchHearsNoMoreOfIt() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://menu/3")
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://order?waitress=Ann")
        var heard: [NavigationChange] = []
        var token: NavigationObserverToken?
        token = h.navigator.observe { event in
            heard.append(event.change)
            if let token { h.navigator.removeObserver(token) }
        }
        let other = EventLog(h.navigator)
        try h.navigator.open("tt://menu/3")
        #expect(other.changes == [.dismissedModal, .popped(count: 1, from: .root)])
        #expect(heard == [.dismissedModal])
        try h.navigator.open("tt://food/b")
        #expect(heard == [.dismissedModal])
    }

    @Test func anObserverAddedDuringAnOpenStartsFromTheTreeCommittedThen() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        let early = EventLog(h.navigator)
        var late: EventLog?
        var lateStart: NavigationSnapshot?
        h.whileMaking["tt://send"] = { navigator in
            try navigator.open("tt://food/first")
            late = EventLog(navigator)
            lateStart = NavigationSnapshot(navigator.tree)
            try navigator.open("tt://food/second")
        }
        try h.navigator.open("tt://send")
        let after = NavigationSnapshot(h.navigator.tree)
        let entries = try #require(after.entries(in: .root))
        #expect(early.changes == [.pushed(entries[1], onto: .root), .pushed(entries[2], onto: .root)])
        #expect(lateStart?.urls(.root) == ["tt://food/pie", "tt://food/first"])
        #expect(late?.changes == [.pushed(entries[2], onto: .root)], "only what came after it was added")
    }

    @Test func anObserverMayNotNavigateWhileItIsTold() throws {
        let h = try NavigationHarnessWithObserverThatNavigates()
        try h.harness.navigator.open("tt://food/pie")
        #expect(h.errors == [.busy("open 'tt://food/sneaky'", during: "telling observers of a change")])
        #expect(h.harness.visible == "tt://food/pie")
        #expect(h.harness.made == ["tt://food/pie"])
        // Once it has returned, the navigator works as before.
        try h.harness.navigator.open("tt://food/cake")
        #expect(h.harness.visible == "tt://food/cake")
    }

    @Test func entryIDsAreUniqueAndStayWithTheirEntries() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let log = EventLog(h.navigator)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://order?waitress=Ann")
        let snapshot = NavigationSnapshot(h.navigator.tree)
        let ids = (snapshot.entries(in: .root) ?? []).map(\.id) + (snapshot.entries(in: .modal(0)) ?? []).map(\.id)
        #expect(Set(ids).count == 3, "two entries of one URL are two entries")
        #expect(h.navigator.tree.allEntries.map(\.id) == ids)
        #expect(log.events.compactMap { if case .pushed(let entry, _) = $0.change { entry.id } else { nil } } == Array(ids.prefix(2)))
    }

    @Test func theSnapshotValueIsTheLuaShape() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        try h.navigator.open("tt://confirm")
        let snapshot = NavigationSnapshot(h.navigator.tree)
        #expect(snapshot.value == h.navigator.tree.snapshot)
        #expect(snapshot.value["root"]?["selected"] == 1)
        #expect(snapshot.visible?.url == "tt://confirm")
        #expect(snapshot.entries(in: .root) == nil && snapshot.entries(in: .tab(2)) == nil && snapshot.entries(in: .modal(0)) == nil)
    }
}

/// A navigator whose observer tries to open a URL when it hears of a push.
final class NavigationHarnessWithObserverThatNavigates {
    let harness: NavigatorHarness
    var errors: [NavigationError] = []
    var token: NavigationObserverToken?

    init() throws {
        harness = try NavigatorHarness(restaurantRoutes)
        token = harness.navigator.observe { [unowned self] event in
            guard case .pushed = event.change, errors.isEmpty else { return }
            do { try harness.navigator.open("tt://food/sneaky") } catch let error as NavigationError { errors.append(error) } catch {}
        }
    }
}

import Testing
@testable import Wayfinder

/// The URLs of each stack: the root's (or each tab's), then each modal's, then the popover alone.
private func stacks(_ h: NavigatorHarness) -> [[String]] {
    let tree = h.navigator.tree
    var result: [[String]] = []
    switch tree.root {
    case .stack(let stack): result.append(stack.entries.map(\.url))
    case .tabs(let tabs, _): result += tabs.map { $0.entries.map(\.url) }
    }
    result += tree.modals.map { $0.entries.map(\.url) }
    if let popover = tree.popover { result.append([popover.url]) }
    return result
}

private func opening(_ url: String, as presentation: Presentation) -> NavigationRequest {
    NavigationRequest(url: url, presentation: presentation)
}

/// The presentation verbs (push, replace, replace_root, clear_all, refresh, pop, none), given by
/// an open or by its route, and pop to root.
@Suite("Navigator: presentation verbs")
struct NavigatorVerbTests {
    @Test func replaceTakesTheVisibleScreensPlaceSoBackGoesWhereItWent() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        weak let replaced = try h.navigator.open("tt://food/b")
        let made = try h.navigator.replace("tt://food/c")
        #expect(stacks(h) == [["tt://food/a", "tt://food/c"]])
        #expect(h.navigator.top === made)
        #expect(replaced == nil, "the replaced controller left with its entry")
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://food/a")
    }

    @Test func replaceInsideAModalKeepsTheModal() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://order?waitress=Ann")
        // A pushed screen replaces the modal's only screen in that modal.
        try h.navigator.replace("tt://food/b")
        #expect(stacks(h) == [["tt://food/a"], ["tt://food/b"]])
        // A modal route replacing the modal's only screen: one modal still, the new one.
        try h.navigator.replace("tt://order?waitress=Bo")
        #expect(stacks(h) == [["tt://food/a"], ["tt://order?waitress=Bo"]])
    }

    @Test func replaceOverAPopoverReplacesThePopover() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://confirm")
        try h.navigator.replace("tt://food/b")
        #expect(stacks(h) == [["tt://food/a", "tt://food/b"]])
    }

    @Test func aVerbThatWouldLeaveTheRootWithoutAScreenIsRefused() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        let before = h.snapshot
        // The root's only screen cannot make way for a modal: nothing would be under it.
        #expect(throws: NavigationError.presentation("tt://order?waitress=Ann", .replace, reason: "it would leave the root stack without a screen")) {
            try h.navigator.replace("tt://order?waitress=Ann")
        }
        #expect(throws: NavigationError.presentation("tt://confirm", .replaceRoot, reason: "it would leave the root stack without a screen")) {
            try h.navigator.open(opening("tt://confirm", as: .replaceRoot))
        }
        #expect(h.snapshot == before)
        // A tab that a verb would empty is named by its number.
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        #expect(throws: NavigationError.presentation("tt://menu/2", .replace, reason: "it would leave tab 1 without a screen")) {
            try h.navigator.replace("tt://menu/2")
        }
    }

    @Test func replaceRootLeavesTheVisibleStackJustTheNewScreen() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        try h.navigator.open("tt://food/a")
        try h.navigator.select(1)
        try h.navigator.open("tt://food/b")
        try h.navigator.open("tt://food/c")
        try h.navigator.open(opening("tt://food/d", as: .replaceRoot))
        #expect(stacks(h) == [["tt://menu/1", "tt://food/a"], ["tt://food/d"]])
        #expect(try !h.navigator.back(), "nothing under it")
        // In a modal, the modal's stack becomes just the new screen.
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://food/e")
        try h.navigator.open(opening("tt://food/f", as: .replaceRoot))
        #expect(stacks(h) == [["tt://menu/1", "tt://food/a"], ["tt://food/d"], ["tt://food/f"]])
    }

    @Test func clearAllDismissesEverythingPopsToTheRootThenOpens() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://food/c")
        try h.navigator.open("tt://confirm")
        let made = try h.navigator.open(opening("tt://food/start", as: .clearAll))
        #expect(stacks(h) == [["tt://menu/1", "tt://food/start"], ["tt://menu/2"]])
        #expect(h.navigator.top === made)
    }

    @Test func clearAllToTheRootScreenItselfOpensNothingMore() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let root = try h.navigator.open("tt://food/home")
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://order?waitress=Ann")
        let count = h.made.count
        let shown = try h.navigator.open(opening("tt://food/home", as: .clearAll))
        #expect(shown === root)
        #expect(h.made.count == count)
        #expect(stacks(h) == [["tt://food/home"]])
    }

    @Test func refreshMakesTheVisibleScreenAgainWithWhatItKeeps() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        var asked: [String] = []
        h.navigator.factory.remaking = { old, request in
            asked.append(old.url)
            var request = request
            request.state = ["kept": .string(old.url)]
            return request
        }
        try h.navigator.open("tt://food/a")
        weak let old = try h.navigator.open(NavigationRequest(url: "tt://food/b", query: ["extra": 1]))
        let fresh = try #require(try h.navigator.open(opening("tt://anything/at/all", as: .refresh)))
        #expect(asked == ["tt://food/b"])
        #expect(old == nil, "the old controller left")
        #expect(fresh.url == "tt://food/b")
        #expect(fresh.state == ["kept": "tt://food/b"])
        #expect(fresh.query["extra"] == 1, "the query the entry was opened with")
        #expect(stacks(h) == [["tt://food/a", "tt://food/b"]])
        #expect(h.events.suffix(2) == ["disappear tt://food/b", "appear tt://food/b"])
        // A popover refreshes in its own place.
        try h.navigator.open("tt://confirm")
        try h.navigator.open(opening("tt://confirm", as: .refresh))
        #expect(stacks(h) == [["tt://food/a", "tt://food/b"], ["tt://confirm"]])
    }

    @Test func refreshWithNothingShowingOrAFailingConstructorChangesNothing() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        #expect(throws: NavigationError.presentation("tt://food/a", .refresh, reason: "no screen shows, so none can be made again")) {
            try h.navigator.open(opening("tt://food/a", as: .refresh))
        }
        let top = try h.navigator.open("tt://food/a")
        h.failOn = ["tt://food/a"]
        #expect(throws: NavigationError.self) { try h.navigator.open(opening("tt://food/a", as: .refresh)) }
        #expect(h.navigator.top === top)
    }

    @Test func popGoesBackOneThenOpensUnlessTheURLIsShowing() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let a = try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        let count = h.made.count
        #expect(try h.navigator.open(opening("tt://food/a", as: .pop)) === a)
        #expect(h.made.count == count, "the screen went back to is not made again")
        #expect(stacks(h) == [["tt://food/a"]])
        try h.navigator.open("tt://food/b")
        try h.navigator.open(opening("tt://food/c", as: .pop))
        #expect(stacks(h) == [["tt://food/a", "tt://food/c"]])
        // A modal of one screen is dismissed; a popover closes.
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open(opening("tt://food/c", as: .pop))
        #expect(stacks(h) == [["tt://food/a", "tt://food/c"]])
        try h.navigator.open("tt://confirm")
        try h.navigator.open(opening("tt://food/c", as: .pop))
        #expect(stacks(h) == [["tt://food/a", "tt://food/c"]])
        // At the bottom of the root stack there is nothing to go back from: it opens.
        try h.navigator.back()
        try h.navigator.open(opening("tt://food/d", as: .pop))
        #expect(stacks(h) == [["tt://food/a", "tt://food/d"]])
    }

    @Test func noneChangesNothingAndMakesNothing() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        let before = (h.snapshot, h.made)
        #expect(try h.navigator.open(opening("tt://food/b", as: .none)) == nil)
        #expect(h.snapshot == before.0)
        #expect(h.made == before.1)
    }

    @Test func aRoutesPresentationAppliesUnlessTheOpenGivesOne() throws {
        let h = try NavigatorHarness(restaurantRoutes + [
            ("tt://step/(n)", RouteOptions(presentation: .replace)),
            ("tt://restart", RouteOptions(presentation: .clearAll)),
        ])
        try h.navigator.open("tt://food/a")
        try h.navigator.open(opening("tt://step/1", as: .push))
        try h.navigator.open("tt://step/2")
        #expect(stacks(h) == [["tt://food/a", "tt://step/2"]])
        try h.navigator.open(opening("tt://step/3", as: .push))
        #expect(stacks(h) == [["tt://food/a", "tt://step/2", "tt://step/3"]])
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://restart")
        #expect(stacks(h) == [["tt://food/a", "tt://restart"]])
    }

    @Test func aParentIsPlacedPlainlyUnderAReplacingScreen() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        // The visible screen goes; the parent is opened in its place; the screen goes on top.
        try h.navigator.replace("tt://about/hours")
        #expect(stacks(h) == [["tt://food/a", "tt://menu/5", "tt://about/hours"]])
    }

    @Test func aFailedVerbChangesNothing() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        try h.navigator.open("tt://order?waitress=Ann")
        let before = h.snapshot
        h.failOn = ["tt://food/new"]
        for presentation in [Presentation.replace, .replaceRoot, .clearAll, .pop] {
            #expect(throws: NavigationError.controllerFailed("tt://food/new", reason: "constructor failed")) {
                try h.navigator.open(opening("tt://food/new", as: presentation))
            }
            #expect(h.snapshot == before, "\(presentation)")
        }
    }

    @Test func popToRootClosesThePopoverAndPopsTheVisibleStack() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://food/c")
        try h.navigator.open("tt://confirm")
        #expect(try h.navigator.popToRoot())
        #expect(stacks(h) == [["tt://food/a", "tt://food/b"], ["tt://order?waitress=Ann"]])
        #expect(try !h.navigator.popToRoot(), "nothing left to pop in the modal")
        #expect(try h.navigator.dismiss())
        #expect(try h.navigator.popToRoot())
        #expect(stacks(h) == [["tt://food/a"]])
    }

    @Test func theVerbsAreToldAsTheChangesTheyMake() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        var heard: [NavigationChange] = []
        _ = h.navigator.observe { heard.append($0.change) }
        let b = try #require(h.navigator.tree.visible)
        try h.navigator.open(opening("tt://food/b", as: .refresh))
        let fresh = try #require(h.navigator.tree.visible)
        #expect(fresh.id != b.id)
        #expect(heard == [.popped(count: 1, from: .root), .pushed(NavigationSnapshot.Entry(id: fresh.id, url: "tt://food/b", isLoaded: true), onto: .root)])
        heard.removeAll()
        try h.navigator.open(opening("tt://food/x", as: .none))
        #expect(heard.isEmpty)
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://confirm")
        heard.removeAll()
        try h.navigator.open(opening("tt://food/c", as: .clearAll))
        let c = try #require(h.navigator.tree.visible)
        #expect(heard == [.closedPopover, .dismissedModal, .popped(count: 1, from: .root),
                          .pushed(NavigationSnapshot.Entry(id: c.id, url: "tt://food/c", isLoaded: true), onto: .root)])
    }
}

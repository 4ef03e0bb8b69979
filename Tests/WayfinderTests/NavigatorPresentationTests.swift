import Testing
@testable import Wayfinder

/// What the user sees after presenting opens, back over a popover, tabs that are actions or fail
/// to make, and actions that fail after navigating.
@Suite("Navigator: what the user sees")
struct NavigatorPresentationTests {
    @Test(arguments: ["tt://food/fries", "tt://menu/3"])
    func aPushingOpenClosesThePopover(url: String) throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://confirm")
        let made = try h.navigator.open(url)
        #expect(h.navigator.tree.popover == nil)
        #expect(h.navigator.top === made)
        #expect(h.visible == url)
    }

    @Test func backOverAPopoverClosesOnlyThePopover() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        // Over a one-screen modal: the popover goes, the modal stays.
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://confirm")
        #expect(try h.navigator.back())
        #expect(h.navigator.tree.popover == nil)
        #expect(h.visible == "tt://order?waitress=Ann")
        // Over a two-screen modal stack: the popover goes, the screen under it stays.
        try h.navigator.open("tt://food/soup")
        try h.navigator.open("tt://confirm")
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://food/soup")
        #expect(h.navigator.tree.modals.first?.entries.count == 2)
        // Over the root stack.
        try h.navigator.dismiss()
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        try h.navigator.open("tt://confirm")
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://food/b")
    }

    @Test func aTabThatIsAnActionIsRefused() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        let before = h.snapshot
        #expect(throws: NavigationError.controllerFailed("tt://send", reason: "its route 'tt://send' is an action (mode none); a tab needs a screen")) {
            try h.navigator.setTabs(["tt://menu/1", "tt://send"])
        }
        #expect(h.snapshot == before)
        #expect(!h.made.contains("tt://send"))
    }

    @Test func selectingATabWhoseConstructorFailsKeepsTheTab() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        h.failOn = ["tt://menu/2"]
        let before = h.snapshot
        #expect(throws: NavigationError.controllerFailed("tt://menu/2", reason: "constructor failed")) {
            try h.navigator.select(1)
        }
        #expect(h.snapshot == before)
        #expect(h.visible == "tt://menu/1")
        // The tab is still there, and a later select makes it.
        h.failOn = []
        #expect(try h.navigator.select(1))
        #expect(h.visible == "tt://menu/2")
        #expect(h.navigator.top != nil)
    }

    @Test func aFailedActionTakesBackItsOwnNavigation() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://order?waitress=Betty")
        let before = h.snapshot
        h.failOn = ["tt://send"]
        h.whileMaking["tt://send"] = { navigator in
            try navigator.dismiss()
            try navigator.open("tt://food/elsewhere")
        }
        #expect(throws: NavigationError.controllerFailed("tt://send", reason: "constructor failed")) {
            try h.navigator.open("tt://send")
        }
        #expect(h.snapshot == before)
        #expect(h.visible == "tt://order?waitress=Betty")
    }

    @Test func theOpenerIsTheScreenTheNewOneOpensOver() throws {
        let routes = RouteTable<String>()
        try routes.add("tt://food/(name)", target: "food")
        try routes.add("tt://about/(page)", target: "about", options: RouteOptions(parent: "tt://food/menu"))
        try routes.add("tt://send", target: "send", options: RouteOptions(mode: .none))
        var openers: [String: String] = [:]
        let navigator = Navigator<String, Screen>(routes: routes, factory: ControllerFactory(make: { match, request in
            openers[request.url] = (request.opener as? Screen)?.url ?? "nil"
            return match.route.target == "send" ? nil : Screen(url: request.url, pattern: match.route.target)
        }))
        try navigator.open("tt://food/pie")
        #expect(openers["tt://food/pie"] == "nil")
        try navigator.open("tt://about/hours")
        #expect(openers["tt://food/menu"] == "tt://food/pie")
        #expect(openers["tt://about/hours"] == "tt://food/menu", "the parent, not the screen visible before the open")
        try navigator.open("tt://send")
        #expect(openers["tt://send"] == "tt://about/hours")
    }

    /// A screen made when it is revealed (a tab's first screen, a restored entry) opens over what
    /// the changed tree shows, not over the screen the change is taking away.
    @Test func aScreenMadeWhenRevealedDoesNotOpenOverTheScreenLeaving() throws {
        let routes = RouteTable<String>()
        try routes.add("tt://tab/(name)", target: "tab")
        try routes.add("tt://food/(name)", target: "food", options: RouteOptions(mode: .share))
        var openers: [String: String] = [:]
        let navigator = Navigator<String, Screen>(routes: routes, factory: ControllerFactory(make: { match, request in
            openers[request.url] = (request.opener as? Screen)?.url ?? "nil"
            return Screen(url: request.url, pattern: match.route.target)
        }))
        try navigator.setTabs(["tt://tab/one", "tt://tab/two"])
        try navigator.open("tt://food/pie")
        #expect(try navigator.select(tabNumber: 2))
        #expect(openers["tt://tab/two"] == "nil", "the second tab's first screen opens over nothing, not over tt://food/pie")
        // A restored tree: the screen under the visible one is made when back reveals it.
        var restored = NavigationTree<Screen>()
        restored.push(NavigationEntry(url: "tt://food/under", key: "tt://food/under", mode: .share, controller: nil))
        restored.push(NavigationEntry(url: "tt://food/top", key: "tt://food/top", mode: .share, controller: nil))
        try navigator.replaceTree(restored)
        #expect(openers["tt://food/top"] == "nil")
        #expect(try navigator.back())
        #expect(openers["tt://food/under"] == "nil", "not over tt://food/top, which back takes away")
    }
}

import Testing
@testable import Wayfinder

/// Routes for links: menus (shared tabs), external dishes, about pages under menu 5 (external),
/// an internal settings screen.
private let linkRoutes: [(String, RouteOptions)] = [
    ("tt://menu/(id:int)", RouteOptions(mode: .share, external: true)),
    ("tt://food/(name)", RouteOptions(external: true)),
    ("tt://about/(page)", RouteOptions(parent: "tt://menu/5", external: true)),
    ("tt://review/(page)", RouteOptions(parent: "tt://about/reviews", external: true)),
    ("tt://settings", RouteOptions()),
    ("tt://order?waitress=(w)", RouteOptions(mode: .modal, external: true)),
]

@Suite("Navigator: links from outside")
struct NavigatorLinkTests {
    @Test func onlyExternalRoutesOpenAndAnyOtherIsRefusedWithNothingChanged() throws {
        let h = try NavigatorHarness(linkRoutes + [("*", RouteOptions())])
        try h.navigator.open("tt://food/a")
        let before = h.snapshot
        #expect(throws: NavigationError.notExternal("tt://settings", reason: "its route 'tt://settings' is not marked external")) {
            try h.navigator.handleLink("tt://settings")
        }
        #expect(throws: NavigationError.notExternal("https://example.com/x", reason: "its route '*' is not marked external")) {
            try h.navigator.handleLink("https://example.com/x")
        }
        #expect(throws: NavigationError.notExternal("tel:5555", reason: "no route uses the scheme 'tel', so it is no screen of the app")) {
            try h.navigator.handleLink("tel:5555")
        }
        #expect(h.external.isEmpty, "a link from outside is never handed back outside")
        #expect {
            try h.navigator.handleLink("tt://food/%zz")
        } throws: { error in
            if case .malformedURL = error as? NavigationError { return true }
            return false
        }
        #expect(h.snapshot == before)
        #expect(!h.made.contains("tt://settings"))
        // The same URLs from inside the app open.
        try h.navigator.open("tt://settings")
        #expect(h.visible == "tt://settings")
        try h.navigator.handleLink("tt://food/b")
        #expect(h.visible == "tt://food/b")
    }

    /// A link that no route matches is refused as a link to a route not marked external is: the
    /// door from outside has one refusal, and the delegate's hook for a miss is not asked.
    @Test func aLinkToNoScreenIsRefusedAsNotExternal() throws {
        let h = try NavigatorHarness(linkRoutes)
        try h.navigator.open("tt://food/a")
        let before = h.snapshot
        var missed: [String] = []
        h.navigator.delegate.didNotMatch = { missed.append($0) }
        #expect(throws: NavigationError.notExternal("tt://nowhere", reason: "no route matches, so it is no screen of the app")) {
            try h.navigator.handleLink("tt://nowhere")
        }
        #expect(h.snapshot == before)
        #expect(missed.isEmpty)
        // From inside the app, the same URL is a miss.
        #expect(throws: NavigationError.noRoute("tt://nowhere", reason: "no route matches")) {
            try h.navigator.open("tt://nowhere")
        }
        #expect(missed == ["tt://nowhere"])
    }

    @Test func aRedirectOfALinkMustLeadToAnExternalRouteToo() throws {
        let h = try NavigatorHarness(linkRoutes)
        h.navigator.delegate.urlToOpen = { $0 == "tt://food/secret" ? "tt://settings" : $0 }
        #expect(throws: NavigationError.notExternal("tt://settings", reason: "its route 'tt://settings' is not marked external")) {
            try h.navigator.handleLink("tt://food/secret")
        }
    }

    @Test func anOldURLIsRewrittenThroughTheMovesFirst() throws {
        let h = try NavigatorHarness(linkRoutes)
        try h.navigator.moves.add(from: "tt://dish/(name)", to: "tt://food/(name)")
        try h.navigator.moves.add(from: "tt://prefs", to: "tt://settings")
        try h.navigator.handleLink("tt://dish/pie?size=2")
        #expect(h.visible == "tt://food/pie?size=2")
        #expect(throws: NavigationError.notExternal("tt://settings", reason: "its route 'tt://settings' is not marked external")) {
            try h.navigator.handleLink("tt://prefs")
        }
    }

    @Test func aLinkLandsInTheTabHoldingItsParentOnTopOfIt() throws {
        let h = try NavigatorHarness(linkRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/5"])
        try h.navigator.open("tt://food/a")
        try h.navigator.handleLink("tt://about/hours")
        #expect(h.navigator.tree.selectedTab == 1)
        guard case .tabs(let tabs, _) = h.navigator.tree.root else { Issue.record("tabs"); return }
        #expect(tabs.map { $0.entries.map(\.url) } == [["tt://menu/1", "tt://food/a"], ["tt://menu/5", "tt://about/hours"]])
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://menu/5")
    }

    @Test func aLinkWithoutAParentLandsInTheSelectedTab() throws {
        let h = try NavigatorHarness(linkRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        try h.navigator.select(1)
        try h.navigator.handleLink("tt://food/a")
        guard case .tabs(let tabs, let selected) = h.navigator.tree.root else { Issue.record("tabs"); return }
        #expect(selected == 1)
        #expect(tabs.map { $0.entries.map(\.url) } == [["tt://menu/1"], ["tt://menu/2", "tt://food/a"]])
    }

    @Test func itsParentChainIsPlacedBeneathItWhenNoTabHoldsIt() throws {
        let h = try NavigatorHarness(linkRoutes)
        try h.navigator.open("tt://food/a")
        try h.navigator.handleLink("tt://review/1")
        guard case .stack(let stack) = h.navigator.tree.root else { Issue.record("a stack"); return }
        #expect(stack.entries.map(\.url) == ["tt://food/a", "tt://menu/5", "tt://about/reviews", "tt://review/1"])
        // The parents need not be external: they are the app's own choice.
    }

    @Test func aGuardedLinkWaitsAsALinkFromOutside() throws {
        let h = try NavigatorHarness(linkRoutes + [("tt://signin", RouteOptions(mode: .modal))])
        var signedIn = false
        h.navigator.routeGuard = { match, request in
            guard match.route.pattern.text == "tt://order?waitress=(w)" else { return .pass }
            #expect(request.fromOutside)
            return signedIn ? .pass : .stop(instead: "tt://signin")
        }
        try h.navigator.open("tt://food/a")
        try h.navigator.handleLink("tt://order?waitress=Ann")
        #expect(h.visible == "tt://signin")
        #expect(h.navigator.pendingOpen?.request.fromOutside == true)
        signedIn = true
        try h.navigator.dismiss()
        #expect(h.visible == "tt://order?waitress=Ann")
    }
}

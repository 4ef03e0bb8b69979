import Testing
@testable import Wayfinder

/// A Swift controller: the core navigator needs no Lua.
final class Screen {
    let url: String
    let pattern: String
    var fragments: [String] = []
    /// What the request carried (a restored entry's saved query and state).
    var query: [String: Value] = [:]
    var state: Value?
    init(url: String, pattern: String) {
        self.url = url
        self.pattern = pattern
    }
}

/// A navigator over a route map, recording what it made and told.
final class NavigatorHarness {
    let routes = RouteTable<String>()
    let navigator: Navigator<String, Screen>
    var made: [String] = []
    var events: [String] = []
    var external: [String] = []
    var failOn: Set<String> = []
    /// Runs inside the constructor of the URL it is keyed by (a target that navigates).
    var whileMaking: [String: (Navigator<String, Screen>) throws -> Void] = [:]

    init(_ patterns: [(String, RouteOptions)]) throws {
        for (pattern, options) in patterns { try routes.add(pattern, target: pattern, options: options) }
        navigator = Navigator(routes: routes, factory: ControllerFactory(make: { _, _ in nil }))
        navigator.factory = ControllerFactory(
            make: { [unowned self] match, request in
                try self.whileMaking[request.url]?(self.navigator)
                if self.failOn.contains(request.url) { throw NavigationError.controllerFailed(request.url, reason: "constructor failed") }
                self.made.append(request.url)
                let screen = Screen(url: request.url, pattern: match.route.target)
                screen.query = Dictionary(uniqueKeysWithValues: request.query.map { ($0.key, $0.value) })
                screen.state = request.state
                return screen
            },
            handleFragment: { screen, match in screen.fragments.append(match.fragment ?? "") },
            appear: { [unowned self] in self.events.append("appear \($0.url)") },
            disappear: { [unowned self] in self.events.append("disappear \($0.url)") })
        navigator.delegate.openExternal = { [unowned self] in self.external.append($0) }
    }

    var visible: String? { navigator.url }
    var snapshot: Value { navigator.tree.snapshot }
}

let restaurantRoutes: [(String, RouteOptions)] = [
    ("tt://menu/(id:int)", RouteOptions(mode: .share)),
    ("tt://food/(name)", RouteOptions()),
    ("tt://about/(page)", RouteOptions(parent: "tt://menu/5")),
    ("tt://order?waitress=(w)", RouteOptions(mode: .modal)),
    ("tt://order?waitress=()#(action)", RouteOptions()),
    ("tt://confirm", RouteOptions(mode: .popover)),
    ("tt://send", RouteOptions(mode: .none)),
    ("*", RouteOptions()),
]

@Suite("Navigator")
struct NavigatorTests {
    @Test func createPushesAndBackPops() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://food/cake")
        #expect(h.visible == "tt://food/cake")
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://food/pie")
        #expect(try !h.navigator.back(), "back at the root does nothing")
        #expect(h.visible == "tt://food/pie")
        #expect(h.events == ["appear tt://food/pie", "disappear tt://food/pie", "appear tt://food/cake", "disappear tt://food/cake", "appear tt://food/pie"])
    }

    @Test func shareSelectsTheTabAndPopsBackToIt() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        #expect(h.made == ["tt://menu/1"], "only the visible tab is made")
        let menu1 = try #require(h.navigator.top)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://menu/2")
        #expect(h.navigator.tree.selectedTab == 1)
        #expect(h.made == ["tt://menu/1", "tt://food/pie", "tt://menu/2"])
        // Menu 1 again, spelled differently: its tab is selected and its stack popped back to it.
        let again = try h.navigator.open("TT://MENU/1")
        #expect(again === menu1)
        #expect(h.navigator.tree.selectedTab == 0)
        #expect(h.snapshot["root"]?["tabs"]?.arrayValue?[0]["entries"]?.arrayValue?.count == 1)
        #expect(h.made.count == 3, "no new controller for a shared URL")
    }

    @Test func shareInTheSameStackPopsBack() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let menu = try h.navigator.open("tt://menu/3")
        try h.navigator.open("tt://food/a")
        try h.navigator.open("tt://food/b")
        #expect(try h.navigator.open("tt://menu/3") === menu)
        #expect(h.visible == "tt://menu/3")
        #expect(try !h.navigator.back())
    }

    @Test func parentsOpenFirst() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/5"])
        try h.navigator.open("tt://about/hours")
        #expect(h.navigator.tree.selectedTab == 1)
        #expect(h.snapshot["root"]?["tabs"]?.arrayValue?[1]["entries"]?.arrayValue?.compactMap { $0["url"]?.stringValue } == ["tt://menu/5", "tt://about/hours"])
        // With no tab for the parent, the parent is opened (here pushed) first.
        let plain = try NavigatorHarness(restaurantRoutes)
        try plain.navigator.open("tt://about/staff")
        #expect(plain.made == ["tt://menu/5", "tt://about/staff"])
    }

    @Test func parentCyclesAreErrorsThatChangeNothing() throws {
        let h = try NavigatorHarness([
            ("tt://a", RouteOptions(parent: "tt://b")), ("tt://b", RouteOptions(parent: "tt://c")),
            ("tt://c", RouteOptions(parent: "tt://a")), ("tt://self", RouteOptions(parent: "tt://SELF")), ("tt://home", RouteOptions()),
        ])
        try h.navigator.open("tt://home")
        let before = h.snapshot
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://a") }
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://self") }
        #expect(h.snapshot == before)
    }

    @Test func redirectsVetoesAndLoops() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        h.navigator.delegate.urlToOpen = { url in
            switch url {
            case "tt://food/old": return "tt://food/new"
            case "tt://food/ping": return "tt://food/pong"
            case "tt://food/pong": return "tt://food/ping"
            case "tt://food/secret": return nil
            default: return url
            }
        }
        h.navigator.delegate.shouldOpen = { $0 != "tt://food/banned" }
        try h.navigator.open("tt://food/old")
        #expect(h.visible == "tt://food/new")
        let before = h.snapshot
        do {
            try h.navigator.open("tt://food/ping")
            Issue.record("a redirect loop must fail")
        } catch let error as NavigationError {
            guard case .redirectLoop(let chain) = error else { Issue.record("\(error)"); return }
            #expect(chain.count == NavigationError.redirectLimitChainLength)
        }
        #expect(throws: NavigationError.vetoed("tt://food/secret")) { try h.navigator.open("tt://food/secret") }
        #expect(throws: NavigationError.vetoed("tt://food/banned")) { try h.navigator.open("tt://food/banned") }
        #expect(h.snapshot == before)
    }

    @Test func externalURLsGoToTheDelegate() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        #expect(try h.navigator.open("tel:5551234") == nil)
        #expect(h.external == ["tel:5551234"])
        #expect(h.visible == "tt://food/pie")
        // http goes to `*` when it is registered...
        try h.navigator.open("http://three20.info")
        #expect(h.navigator.top?.pattern == "*")
        // ...and is external when it is not.
        let bare = try NavigatorHarness([("tt://home", RouteOptions())])
        try bare.navigator.open("https://example.com")
        #expect(bare.external == ["https://example.com"])
        bare.navigator.delegate.openExternal = nil
        #expect(throws: NavigationError.noExternalHandler("maps:q")) { try bare.navigator.open("maps:q") }
    }

    @Test func modalsStackAndDismissInOrder() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://food/inside")
        try h.navigator.open("tt://order?waitress=Bo")
        #expect(h.navigator.tree.modals.count == 2)
        #expect(h.visible == "tt://order?waitress=Bo")
        #expect(try !h.navigator.back(), "a modal's own root does not pop")
        #expect(try h.navigator.dismiss())
        #expect(h.visible == "tt://food/inside")
        #expect(try h.navigator.back())
        #expect(h.visible == "tt://order?waitress=Ann")
        #expect(try h.navigator.dismiss())
        #expect(h.visible == "tt://food/pie")
        #expect(try !h.navigator.dismiss())
    }

    @Test func popoversAreOneAtATime() throws {
        let h = try NavigatorHarness(restaurantRoutes + [("tt://tip", RouteOptions(mode: .popover))])
        try h.navigator.open("tt://food/pie")
        let confirm = try h.navigator.open("tt://confirm")
        #expect(h.navigator.tree.popover?.controller === confirm)
        try h.navigator.open("tt://tip")
        #expect(h.visible == "tt://tip")
        #expect(h.navigator.tree.popover?.url == "tt://tip")
        #expect(try h.navigator.dismiss())
        #expect(h.navigator.tree.popover == nil)
        #expect(h.visible == "tt://food/pie")
        // A modal closes a popover.
        try h.navigator.open("tt://confirm")
        try h.navigator.open("tt://order?waitress=Ann")
        #expect(h.navigator.tree.popover == nil)
    }

    @Test func noneRunsTheTargetAndPresentsNothing() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        let before = h.snapshot
        let result = try h.navigator.open("tt://send")
        #expect(result?.url == "tt://send")
        #expect(h.made.last == "tt://send")
        #expect(h.snapshot == before)
    }

    @Test func noneTargetsMayNavigateAndTheirChangesStand() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        try h.navigator.open("tt://order?waitress=Betty")
        try h.navigator.open("tt://confirm")
        h.whileMaking["tt://send"] = { navigator in
            let closedPopover = try navigator.dismiss()
            let closedModal = try navigator.dismiss()
            #expect(closedPopover && closedModal)
        }
        try h.navigator.open("tt://send")
        #expect(h.visible == "tt://food/pie")
        #expect(h.navigator.tree.modals.isEmpty)
        #expect(h.navigator.tree.popover == nil)
    }

    @Test func constructorsMayNotNavigate() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://food/pie")
        let before = h.snapshot
        h.whileMaking["tt://food/sneaky"] = { navigator in try navigator.open("tt://food/elsewhere") }
        #expect(throws: NavigationError.busy("open 'tt://food/elsewhere'", during: "open 'tt://food/sneaky'")) {
            try h.navigator.open("tt://food/sneaky")
        }
        #expect(h.snapshot == before)
        // The guard is released after a failure: the navigator still works.
        try h.navigator.open("tt://food/cake")
        #expect(h.visible == "tt://food/cake")
    }

    @Test func aFailedActionTakesBackTheParentsItsOpenCommitted() throws {
        let h = try NavigatorHarness([
            ("tt://menu/(id:int)", RouteOptions(mode: .share)),
            ("tt://food/(name)", RouteOptions()),
            ("tt://act", RouteOptions(mode: .none, parent: "tt://menu/5")),
            ("tt://loop", RouteOptions(parent: "tt://act")),
        ])
        try h.navigator.open("tt://food/pie")
        let before = h.snapshot
        h.failOn = ["tt://act"]
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://act") }
        #expect(h.snapshot == before)
        h.failOn = []
        try h.navigator.open("tt://act")
        #expect(h.visible == "tt://menu/5", "the parent was opened, then the action ran")
        #expect(throws: NavigationError.parentIsAction("tt://act", of: "tt://loop")) { try h.navigator.open("tt://loop") }
    }

    @Test func fragmentsGoToTheScreenShowingTheirBaseURL() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let order = try #require(try h.navigator.open("tt://order?waitress=Betty"))
        try h.navigator.open("tt://food/inside")
        let same = try h.navigator.open("tt://order?waitress=Betty#pizza")
        #expect(same === order)
        #expect(order.fragments == ["pizza"])
        #expect(h.visible == "tt://order?waitress=Betty", "the screen was brought back to the front")
        // With no screen for the base URL, the fragment route opens a new one.
        let fresh = try #require(try h.navigator.open("tt://order?waitress=Cy#soup"))
        #expect(fresh !== order)
        #expect(fresh.pattern == "tt://order?waitress=()#(action)")
    }

    @Test func failedOpensLeaveTheTreeAsItWas() throws {
        let h = try NavigatorHarness(restaurantRoutes.filter { $0.0 != "*" })
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/5"])
        try h.navigator.open("tt://food/pie")
        let before = h.snapshot
        let events = h.events
        h.failOn = ["tt://food/broken", "tt://menu/5"]
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://food/broken") }
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://nowhere") }
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://food/%zz") }
        // The parent's constructor fails while it is being opened for a child.
        #expect(throws: NavigationError.self) { try h.navigator.open("tt://about/hours") }
        #expect(h.snapshot == before)
        #expect(h.events == events, "no appear or disappear for a failed open")
    }

    @Test func controllersLeaveWithTheirEntries() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://menu/1")
        weak var pushed: Screen?
        weak var modal: Screen?
        try {
            pushed = try h.navigator.open("tt://menu/2")
            modal = try h.navigator.open("tt://order?waitress=Ann")
        }()
        #expect(pushed != nil && modal != nil)
        #expect(try h.navigator.dismiss())
        #expect(modal == nil, "a dismissed modal's controller is released")
        #expect(try h.navigator.back())
        #expect(pushed == nil, "a popped shared controller is not kept by any cache")
        // Opening the shared URL again makes a new controller.
        try h.navigator.open("tt://menu/2")
        #expect(h.made.filter { $0 == "tt://menu/2" }.count == 2)
    }

    @Test func theTreeSnapshotHasTheDocumentedShape() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
        try h.navigator.open("tt://order?waitress=Ann")
        try h.navigator.open("tt://confirm")
        let expected: Value = [
            "root": ["kind": "tabs", "selected": 1, "tabs": [
                ["kind": "stack", "entries": [["url": "tt://menu/1", "loaded": true]]],
                ["kind": "stack", "entries": [["url": "tt://menu/2", "loaded": false]]],
            ]],
            "modals": [["kind": "stack", "entries": [["url": "tt://order?waitress=Ann", "loaded": true]]]],
            "popover": ["url": "tt://confirm", "loaded": true],
            "visible": "tt://confirm",
        ]
        #expect(h.snapshot == expected)
        #expect(try JSON.encode(h.snapshot).hasPrefix(#"{"root":{"kind":"tabs","selected":1,"#))
    }

    @Test func entriesWhoseRouteIsGoneAreDroppedWhenRevealed() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        var warnings: [String] = []
        h.navigator.warn = { warnings.append($0) }
        try h.navigator.setTabs(["tt://menu/1", "tt://food/x"])
        h.routes.remove("tt://food/(name)")
        h.routes.remove("*")
        #expect(try h.navigator.select(1))
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("tt://food/x") == true)
    }
}

extension NavigationError {
    /// The chain a loop reports: every URL tried, then the one that would have come next.
    static var redirectLimitChainLength: Int { Navigator<String, Screen>.maximumRedirects + 1 }
}

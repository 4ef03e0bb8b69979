import Testing
import Wayfinder
@testable import WayfinderLua

/// `wf.navigator` end to end: modes, moving around, the delegate, hooks, and failures that
/// leave the tree as it was.
@Suite("wf.navigator")
struct NavigatorBindingTests {
    static let app = """
        local wf = require "wayfinder"
        log = {}
        local function note(text) log[#log + 1] = text end

        local Screen = wf.controller "Screen"
        function Screen:initWithNavigatorURL_query(url) made = (made or 0) + 1 end
        function Screen:appear() note("appear " .. self.url) end
        function Screen:disappear() note("disappear " .. self.url) end
        function Screen:render() return { title = "Screen " .. self.url, lines = { "one", 2 }, links = { { "Home", "tt://home" }, { title = "Menu", url = "tt://menu/1" } } } end

        local Menu = wf.controller("Menu", Screen)
        function Menu:initWithMenu(n) self.n = n end

        local Order = wf.controller("Order", Screen)
        function Order:initWithWaitress(w) self.waitress = w; self.items = {} end
        function Order:orderAction(dish) self.items[#self.items + 1] = dish end

        local Broken = wf.controller "Broken"
        function Broken:initWithHow(how)
          if how == "error" then error("the oven is cold") end
          if how == "loop" then while true do end end
          if how == "memory" then local t = { "x" } while true do t[#t + 1] = t[#t] .. t[#t] end end
          if how == "navigate" then local ok, err = wf.navigator:open("tt://home"); error(err, 0) end
        end

        wf.map:from("tt://home", Screen)
        wf.map:from("tt://menu/(initWithMenu:int)", Menu, { mode = "share" })
        wf.map:from("tt://about", Screen, { parent = "tt://menu/5" })
        wf.map:from("tt://order?waitress=(initWithWaitress:)", Order, { mode = "modal" })
        wf.map:from("tt://order?waitress=()#(orderAction:)", Order)
        wf.map:from("tt://confirm", Screen, { mode = "popover" })
        wf.map:from("tt://close", function() return { closed = wf.navigator:dismiss() } end, { mode = "none" })
        wf.map:from("tt://silent", function() end, { mode = "none" })
        wf.map:from("tt://broken/(initWithHow:)", Broken)
        wf.map:from("tt://number", function() return 42 end)
        """

    func tree(_ app: TestApp) throws -> Value {
        app.host.navigator.tree.snapshot
    }

    @Test func openReturnsTheControllerAndTheTreeShowsIt() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local home = nav:open("tt://home")
            local food = nav:open("tt://menu/2")
            return nav:top() == food, nav:url(), food.n, home.url, getmetatable(food).__name
            """)
        #expect(result == [true, "tt://menu/2", 2, "tt://home", "Menu"])
        let luaTree = try app.run("local t = wayfinder.navigator:tree(); return t.root, #t.modals, t.visible")
        #expect(luaTree == [try tree(app)["root"]!, 0, "tt://menu/2"])
        #expect(try tree(app) == [
            "root": ["kind": "stack", "entries": [["url": "tt://home", "loaded": true], ["url": "tt://menu/2", "loaded": true]]],
            "modals": [], "visible": "tt://menu/2",
        ])
    }

    @Test func shareBringsTheSameControllerBack() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local menu = nav:open("tt://menu/1")
            nav:open("tt://home"); nav:open("tt://home")
            local again = nav:open("TT://MENU/1")
            return again == menu, nav:url(), #nav:tree().root.entries
            """)
        #expect(result == [true, "tt://menu/1", 1])
    }

    @Test func modalsPopoversBackAndDismiss() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home")
            nav:open("tt://order?waitress=Betty")
            nav:open("tt://home")
            nav:open("tt://confirm")
            local t = nav:tree()
            local shape = { #t.modals, #t.modals[1].entries, t.popover.url, t.visible }
            local answers = { nav:back(), nav:url(), nav:dismiss(), nav:url(), nav:back(), nav:dismiss(), nav:back() }
            return shape, answers
            """)
        #expect(result == [[1, 2, "tt://confirm", "tt://confirm"],
                           // back closes only the popover; dismiss then closes the modal.
                           [true, "tt://home", true, "tt://home", false, false, false]])
    }

    @Test func tabsAndSelect() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            made = 0
            assert(nav:tabs { "tt://menu/1", "tt://menu/2", "tt://home" })
            local before = made
            local t = nav:tree()
            local answers = { nav:select(3), nav:url(), nav:select(4), nav:select(0), nav:url() }
            nav:open("tt://menu/2")
            return before, t.root.selected, t.root.tabs[2].entries[1].loaded, answers, nav:tree().root.selected, made
            """)
        // Only the visible tab's controller is made up front; home is made when selected.
        #expect(result == [0, 1, false, [true, "tt://home", false, false, "tt://home"], 2, 1])
    }

    @Test func parentsOpenFirst() throws {
        let app = try TestApp(Self.app)
        try app.run("wayfinder.navigator:open('tt://home'); wayfinder.navigator:open('tt://about')")
        #expect(try tree(app)["root"]?["entries"] == [["url": "tt://home", "loaded": true], ["url": "tt://menu/5", "loaded": true], ["url": "tt://about", "loaded": true]])
    }

    @Test func fragmentsCallTheScreenShowingTheirBaseURL() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local order = nav:open("tt://order?waitress=Betty")
            local same = nav:open("tt://order?waitress=Betty#pizza")
            nav:open("tt://order?waitress=Betty#pie")
            return same == order, order.items, #nav:tree().modals
            """)
        #expect(result == [true, ["pizza", "pie"], 1])
    }

    @Test func noneTargetsRunAndMayNavigate() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home")
            nav:open("tt://order?waitress=Betty")
            local answer = nav:open("tt://close")
            local silent = nav:open("tt://silent")
            return answer.closed, nav:url(), #nav:tree().modals, silent
            """)
        #expect(result == [true, "tt://home", 0, true])
    }

    @Test func appearAndDisappearFollowTheVisibleController() throws {
        let app = try TestApp(Self.app)
        let log = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home"); nav:open("tt://menu/1"); nav:back()
            nav:open("tt://confirm"); nav:dismiss()
            return log
            """)
        #expect(log == [["appear tt://home", "disappear tt://home", "appear tt://menu/1", "disappear tt://menu/1", "appear tt://home",
                         "disappear tt://home", "appear tt://confirm", "disappear tt://confirm", "appear tt://home"]])
    }

    /// The host skips the call to a hook a controller certainly lacks, told by raw reads; a hook
    /// found anywhere Lua's own lookup would find it is called: on the instance, up the classes, behind
    /// an `__index` function, or defined on the class after its screens first appeared.
    @Test func hooksAreFoundWhereverLuaFindsThem() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            log = {}
            local function note(text) log[#log + 1] = text end
            Plain = wf.controller "Plain"
            local Dynamic = wf.controller "Dynamic"
            setmetatable(Dynamic, { __index = function(_, key)
              if key == "appear" then return function(self) note("dynamic appear " .. self.url) end end
            end })
            wf.map:from("tt://plain/(initWithN:)", Plain)
            wf.map:from("tt://dynamic", Dynamic)
            wf.map:from("tt://own", function(route)
              return { url = route.url, disappear = function(self) note("own disappear " .. self.url) end }
            end)
            """)
        let log = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://plain/1"); nav:open("tt://own"); nav:open("tt://dynamic"); nav:back(); nav:back()
            function Plain:appear() log[#log + 1] = "late appear " .. self.url end
            nav:open("tt://plain/2"); nav:back()
            return log
            """)
        #expect(log == [["own disappear tt://own", "dynamic appear tt://dynamic", "own disappear tt://own",
                         "late appear tt://plain/2", "late appear tt://plain/1"]])
    }

    @Test func renderIsReadIntoAScreen() throws {
        let app = try TestApp(Self.app)
        try app.run("wayfinder.navigator:open('tt://home')")
        let screen = try app.host.bridge.render(try #require(app.host.navigator.top))
        #expect(screen == RenderedScreen(title: "Screen tt://home", lines: ["one", "2"],
                                         links: [.init(title: "Home", url: "tt://home"), .init(title: "Menu", url: "tt://menu/1")]))
    }

    /// Named by the controller and where its render is defined, since the table it returned has
    /// no line of its own.
    @Test func badRenderResultsNameTheController() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            local Bad = wf.controller "Bad"
            function Bad:initWithHow(how) self.how = how end
            function Bad:render()
              if self.how == "string" then return "hello" end
              if self.how == "link" then return { title = "x", links = { { "only a label" } } } end
              if self.how == "field" then return { titel = "typo" } end
              if self.how == "error" then error("cannot draw") end
            end
            wf.map:from("tt://bad/(initWithHow:)", Bad)
            """)
        let expected = [
            "string": "app.lua:4: render() of Bad returned a string, not a table { title, lines, links }",
            "link": "app.lua:4: render() of Bad returned links[1] that is not { \"label\", \"url\" }",
            "field": "app.lua:4: render() of Bad returned an unknown field 'titel' (fields: title, lines, links, fields, buttons)",
            "error": "app.lua:8: cannot draw",
        ]
        for (how, message) in expected {
            try app.run("wayfinder.navigator:open('tt://bad/\(how)')")
            let top = try #require(app.host.navigator.top)
            #expect { try app.host.bridge.render(top) } throws: { ($0 as? ScriptError)?.message == message }
        }
    }

    /// Every failure answers nil and a reason, and the tree (and what is visible) stays as it was.
    @Test(arguments: [
        ("tt://nowhere", "cannot open 'tt://nowhere': no route matches"),
        ("tt://home/%zz", "cannot open 'tt://home/%zz': invalid percent escape in the path at byte 10"),
        ("tt://broken/error", "cannot open 'tt://broken/error': app.lua:20: the oven is cold"),
        ("tt://broken/memory", "cannot open 'tt://broken/memory': app.lua:22: memory limit of 32 MiB reached"),
        ("tt://broken/navigate", "cannot open 'tt://broken/navigate': cannot open 'tt://home' while the navigator is busy with open 'tt://broken/navigate' (constructors, delegate hooks, guards, appear/disappear and observers of the navigator may not navigate; a mode \"none\" route may)"),
        ("tt://number", "cannot open 'tt://number': the target of 'tt://number' returned a number, not a controller (a table)"),
    ])
    func failedOpensChangeNothing(url: String, reason: String) throws {
        let app = try TestApp(Self.app)
        try app.run("wayfinder.navigator:open('tt://home'); wayfinder.navigator:open('tt://order?waitress=Al'); log = {}")
        let before = try tree(app)
        let result = try app.run("return wayfinder.navigator:open(...)".replacingOccurrences(of: "...", with: "'\(url)'"))
        #expect(result == [.null, .string(reason)])
        #expect(try tree(app) == before)
        #expect(try app.run("return #log, wayfinder.navigator:url()") == [0, "tt://order?waitress=Al"])
        // Still usable afterwards.
        #expect(try app.run("return wayfinder.navigator:open('tt://home') ~= nil, wayfinder.navigator:url()") == [true, "tt://home"])
    }

    /// A constructor that loops spends the budget of the script that opened it (one deadline for
    /// the whole call): the open stops that script at its own line, even when it would catch the
    /// error, and the tree stays as it was.
    @Test func anOpenThatSpendsTheBudgetStopsTheCallingScript() throws {
        let app = try TestApp(Self.app)
        try app.run("wayfinder.navigator:open('tt://home'); wayfinder.navigator:open('tt://order?waitress=Al'); log = {}")
        let before = try tree(app)
        for source in ["local controller, reason = wayfinder.navigator:open('tt://broken/loop') return controller, reason",
                       "local ok = pcall(wayfinder.navigator.open, wayfinder.navigator, 'tt://broken/loop') return ok"] {
            #expect { try app.run(source) } throws: {
                ($0 as? ScriptError)?.kind == .timeout && ($0 as? ScriptError)?.message.hasPrefix("spec:1: time budget of 300 ms exceeded") == true
            }
            #expect(try tree(app) == before)
        }
        #expect(try app.run("return #log, wayfinder.navigator:url()") == [0, "tt://order?waitress=Al"])
        #expect(try app.run("return wayfinder.navigator:open('tt://home') ~= nil, wayfinder.navigator:url()") == [true, "tt://home"])
    }

    @Test func theDelegateVetoesRedirectsAndHearsAboutOpens() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local heard = {}
            nav.delegate = {
              should_open = function(url) return url ~= "tt://menu/9" end,
              url_to_open = function(url) if url == "tt://old" then return "tt://home" end return url end,
              will_open = function(url, controller) heard[#heard + 1] = url .. " " .. getmetatable(controller).__name end,
              did_not_match = function(url) heard[#heard + 1] = "no " .. url end,
              open_external = function(url) heard[#heard + 1] = "external " .. url end,
            }
            local _, vetoed = nav:open("tt://menu/9")
            local redirected = nav:open("tt://old")
            local missing = { nav:open("tt://nowhere") }
            local external = nav:open("tel:5555")
            local after = nav:tree()
            nav.delegate.should_open = nil
            local allowed = nav:open("tt://menu/9") ~= nil
            return vetoed, redirected.url, missing[2], external, heard, #after.root.entries, allowed
            """)
        #expect(result == [
            "opening 'tt://menu/9' was vetoed by the delegate", "tt://home", "cannot open 'tt://nowhere': no route matches", true,
            ["tt://home Screen", "no tt://nowhere", "external tel:5555", "tt://menu/9 Menu"], 1, true,
        ])
    }

    @Test func redirectLoopsAreCut() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            nav.delegate = { url_to_open = function(url) return url == "tt://a" and "tt://b" or "tt://a" end }
            return nav:open("tt://a")
            """)
        #expect(result[0] == .null)
        #expect(result[1].stringValue?.hasPrefix("redirect loop cut after 8 hops: tt://a -> tt://b -> tt://a") == true)
    }

    @Test func externalURLsNeedAHandler() throws {
        let app = try TestApp(Self.app)
        #expect(try app.run("return wayfinder.navigator:open('tel:5555')") == [.null, "'tel:5555' is external and no open_external handler is set"])
        var opened: [String] = []
        app.host.openExternal = { opened.append($0) }
        #expect(try app.run("return wayfinder.navigator:open('tel:5555')") == [true])
        #expect(opened == ["tel:5555"])
    }

    @Test func delegateHookErrorsFailTheOpen() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home")
            nav.delegate = { will_open = function(url) error("not today") end }
            local a, b = nav:open("tt://menu/1")
            return a, b, nav:url()
            """)
        #expect(result == [.null, "cannot open 'tt://menu/1': spec:3: not today", "tt://home"])
    }

    @Test func appearErrorsAreWarningsNotFailures() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            local Grumpy = wf.controller "Grumpy"
            function Grumpy:appear() error("grr") end
            wf.map:from("tt://grumpy", Grumpy)
            """)
        var warnings: [String] = []
        app.host.warn = { warnings.append($0) }
        #expect(try app.run("return wayfinder.navigator:open('tt://grumpy') ~= nil, wayfinder.navigator:url()") == [true, "tt://grumpy"])
        #expect(warnings == ["appear: app.lua:3: grr"])
    }

    @Test func launchSetsUpTabsOrTheRoot() throws {
        let tabs = try TestApp(Self.app + "\nwf.app { tabs = { 'tt://menu/1', 'tt://home' } }")
        try tabs.host.launch()
        #expect(try tree(tabs)["root"]?["kind"] == "tabs")
        #expect(tabs.host.navigator.url == "tt://menu/1")
        let root = try TestApp(Self.app + "\nwf.app { root = 'tt://about' }")
        try root.host.launch()
        #expect(root.host.navigator.url == "tt://about")
        #expect(try tree(root)["root"]?["entries"]?.arrayValue?.count == 2, "the root's parent opened first")
        let bad = try TestApp(Self.app + "\nwf.app { root = 'tt://nowhere' }")
        #expect(throws: NavigationError.noRoute("tt://nowhere", reason: "no route matches")) { try bad.host.launch() }
    }

    @Test func settingsAndMisuse() throws {
        let app = try TestApp(Self.app)
        #expect(try app.run("local nav = wayfinder.navigator; return nav.persistence, nav.expiration") == ["all", 0], "an app persists its whole tree unless it says otherwise")
        #expect(try app.run("local nav = wayfinder.navigator; nav.persistence = 'all'; nav.expiration = 60; return nav.persistence, nav.expiration") == ["all", 60])
        #expect(app.host.config.persistence == .all)
        let misuse = [
            "wayfinder.navigator.persistence = 'some'": "spec:1: nav.persistence must be one of none, top, all; got 'some'",
            "wayfinder.navigator.expiration = -1": "spec:1: nav.expiration must be a number of seconds >= 0 (0 = never), got -1",
            "wayfinder.navigator.delegate = 5": "spec:1: nav.delegate must be a table of hook functions (or nil), got number",
            "wayfinder.navigator.colour = 'red'": "spec:1: nav.colour is not a navigator field (fields: delegate, persistence, expiration, pending_expiration)",
            "wayfinder.navigator.open('tt://home')": "spec:1: call it as wf.navigator:open(...), with a colon",
            "wayfinder.navigator:open(42)": "spec:1: nav:open needs a URL string or an action table { url = ..., query = ... }, got number",
            "wayfinder.navigator:open { url = 'tt://home', color = 1 }": "spec:1: nav:open: unknown action field 'color' (known: url, route, params, query, parent, presentation, state, context, animated, transition)",
            "wayfinder.navigator:open { query = {} }": "spec:1: nav:open: the action table needs a url (or a route)",
            "wayfinder.navigator:select('2')": "spec:1: nav:select needs a tab number (an integer from 1), got string",
            "wayfinder.navigator:tabs {}": "spec:1: nav:tabs needs a list of URL strings",
        ]
        for (source, message) in misuse {
            #expect("\(source)") { try app.run(source) } throws: { ($0 as? ScriptError)?.message == message }
        }
    }

    @Test func controllersThatLeaveTheTreeCanBeCollected() throws {
        let app = try TestApp(Self.app)
        try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home")
            watch = setmetatable({ nav:open("tt://menu/1"), nav:open("tt://menu/2") }, { __mode = "v" })
            nav:back(); nav:back()
            """)
        try app.host.state.collectGarbage()
        try app.host.state.collectGarbage()
        #expect(try app.run("collectgarbage(); collectgarbage(); return watch[1], watch[2]") == [.null, .null])
    }
}

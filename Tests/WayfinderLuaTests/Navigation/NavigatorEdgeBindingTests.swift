import Testing
import Wayfinder
@testable import WayfinderLua

/// `wf.navigator` where a user met surprises: tabs that are actions or fail to make, fragments on
/// patterns without one, and the context a screen opened under a parent chains to.
@Suite("wf.navigator: edges users met")
struct NavigatorEdgeBindingTests {
    static let app = """
        local wf = require "wayfinder"
        local Screen = wf.controller "Screen"
        function Screen:initWithNavigatorURL_query(url) end

        local Web = wf.controller "Web"
        function Web:initWithNavigatorURL_query(url) self.address = url end

        local Hooked = wf.controller "Hooked"
        function Hooked:initWithNavigatorURL_query(url) self.heard = {} end
        function Hooked:fragment(text) self.heard[#self.heard + 1] = text end

        local Flaky = wf.controller "Flaky"
        function Flaky:initWithNavigatorURL_query(url) if failing then error("the kitchen is closed") end end

        local Menu = wf.controller "Menu"
        function Menu:initWithNavigatorURL_query(url) self.context:set("section", "menu") end

        wf.map:from("tt://home", Screen)
        wf.map:from("tt://hooked", Hooked)
        wf.map:from("tt://flaky", Flaky)
        wf.map:from("tt://menu", Menu)
        wf.map:from("tt://about", Screen, { parent = "tt://menu" })
        wf.map:from("tt://act", function() end, { mode = "none" })
        wf.map:from("*", Web)
        """

    @Test func anActionIsRefusedAsATab() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home")
            local ok, reason = nav:tabs { "tt://home", "tt://act" }
            return ok, reason, nav:url(), nav:tree().root.kind
            """)
        #expect(result[0] == .null)
        #expect(result[1].stringValue?.contains("'tt://act'") == true)
        #expect(result[1].stringValue?.contains("is an action (mode none)") == true)
        #expect(Array(result[2...]) == ["tt://home", "stack"])
    }

    @Test func aTabWhoseConstructorFailsStaysForALaterSelect() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            assert(nav:tabs { "tt://home", "tt://flaky" })
            failing = true
            local ok, reason = nav:select(2)
            local tabs, url = #nav:tree().root.tabs, nav:url()
            failing = false
            return ok, reason, tabs, url, nav:select(2), nav:url()
            """)
        #expect(result[0] == .null)
        #expect(result[1].stringValue?.contains("the kitchen is closed") == true)
        #expect(Array(result[2...]) == [2, "tt://home", true, "tt://flaky"])
    }

    @Test func aFragmentThePatternDoesNotNameIsData() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local web = assert(nav:open("https://example.com/a"))
            local same, err = nav:open("https://example.com/a#b")
            local hooked = assert(nav:open("tt://hooked"))
            local again = nav:open("tt://hooked#top")
            return same == web, err or false, web.fragment, again == hooked, hooked.heard, #nav:tree().root.entries
            """)
        #expect(result == [true, false, "b", true, ["top"], 2])
    }

    @Test func aScreenOpenedUnderAParentChainsToTheParentsContext() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            nav:open("tt://home")
            local about = assert(nav:open("tt://about"))
            return about.context:get("section") or false
            """)
        #expect(result == ["menu"])
    }
}

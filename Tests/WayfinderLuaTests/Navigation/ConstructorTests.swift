import Testing
import Wayfinder
@testable import WayfinderLua

/// Which constructor `nav:open` calls, and with what (docs/lua-api.md's deduction), observed from the
/// calls themselves: every constructor records its name and arguments in `calls`.
@Suite("Constructors through nav:open")
struct ConstructorTests {
    static let app = """
        local wf = require "wayfinder"
        calls = {}
        local function record(name, ...) calls[#calls + 1] = { name, ... } end

        local Selector = wf.controller "Selector"
        function Selector:initWithFood(food) record("initWithFood", food) end
        function Selector:initWithName(name) record("initWithName", name) end
        wf.map:from("tt://food/(initWithName:)", Selector, { selector = "initWithFood:" })

        local Joined = wf.controller "Joined"
        function Joined:initWithMenu_page(menu, page) record("initWithMenu_page", menu, page) end
        function Joined:init() record("init") end
        wf.map:from("tt://menu/(initWithMenu:int)/(page:int)", Joined)

        local Spelled = wf.controller "Spelled"
        Spelled["initWithMenu:page:"] = function(self, menu, page) record("initWithMenu:page:", menu, page) end
        wf.map:from("tt://spelled/(initWithMenu:int)/(page:int)", Spelled)

        local Query = wf.controller "Query"
        function Query:initWithMenu_query(menu, query) record("initWithMenu_query", menu, query) end
        wf.map:from("tt://query/(initWithMenu:)", Query)

        local Plain = wf.controller "Plain"
        function Plain:initWithNavigatorURL_query(url, query) record("initWithNavigatorURL_query", url, query) end
        function Plain:init() record("init") end
        wf.map:from("tt://plain", Plain)

        local Init = wf.controller "Init"
        function Init:init(route) record("init", route.url, route.params.id, route.pattern) end
        wf.map:from("tt://init/(id:int)", Init)

        local Bare = wf.controller "Bare"
        wf.map:from("tt://bare/(id)", Bare)

        local Replacing = wf.controller "Replacing"
        function Replacing:initWithThing(thing) return { replaced = thing } end
        wf.map:from("tt://replace/(initWithThing:)", Replacing)

        wf.map:from("tt://fn/(id:int)", function(route)
          record("function", route.url, route.pattern, route.params.id, route.query.x, route.fragment)
          return { made_by = "function" }
        end)
        """

    /// Opens `url` (a Lua expression) and returns what the constructor recorded and the controller's class.
    func open(_ action: String, in app: TestApp) throws -> [Value] {
        try app.run("""
            calls = {}
            local c, err = wayfinder.navigator:open(\(action))
            assert(c, err)
            local mt = getmetatable(c)
            return calls[1] or {}, mt and mt.__name or false, c.url
            """)
    }

    @Test func theSelectorOptionComesFirst() throws {
        let app = try TestApp(Self.app)
        let result = try open("'tt://food/pie'", in: app)
        #expect(result == [["initWithFood", "pie"], "Selector", "tt://food/pie"])
    }

    @Test func paramNamesJoinedWithUnderscores() throws {
        let app = try TestApp(Self.app)
        #expect(try open("'tt://menu/3/2'", in: app) == [["initWithMenu_page", 3, 2], "Joined", "tt://menu/3/2"])
    }

    @Test func aKeySpelledAsTheSelectorCounts() throws {
        let app = try TestApp(Self.app)
        #expect(try open("'tt://spelled/1/9'", in: app) == [["initWithMenu:page:", 1, 9], "Spelled", "tt://spelled/1/9"])
    }

    @Test func theQueryFormGetsTheURLsQueryJoinedByTheActions() throws {
        let app = try TestApp(Self.app)
        let result = try open("{ url = 'tt://query/lunch?a=1&b=2', query = { b = 'action', n = 7 } }", in: app)
        #expect(result == [["initWithMenu_query", "lunch", ["a": "1", "b": "action", "n": 7]], "Query", "tt://query/lunch?a=1&b=2"])
    }

    @Test func withoutNamedParamsTheURLAndQuery() throws {
        let app = try TestApp(Self.app)
        #expect(try open("'tt://plain?x=1'", in: app) == [["initWithNavigatorURL_query", "tt://plain?x=1", ["x": "1"]], "Plain", "tt://plain?x=1"])
    }

    @Test func initGetsTheRoute() throws {
        let app = try TestApp(Self.app)
        #expect(try open("'tt://init/42'", in: app) == [["init", "tt://init/42", 42, "tt://init/(id:int)"], "Init", "tt://init/42"])
    }

    @Test func aClassWithNoConstructorIsUsedAsItIs() throws {
        let app = try TestApp(Self.app)
        #expect(try open("'tt://bare/x?q=1'", in: app) == [[:], "Bare", "tt://bare/x?q=1"])
        #expect(try app.run("local c = wayfinder.navigator:top(); return c.query.q, getmetatable(c).__name") == ["1", "Bare"])
    }

    @Test func aReturnedTableBecomesTheController() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local c = wayfinder.navigator:open("tt://replace/lamp")
            return c.replaced, getmetatable(c) == nil, wayfinder.navigator:top() == c
            """)
        #expect(result == ["lamp", true, true])
    }

    @Test func functionTargetsGetTheRouteTable() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            calls = {}
            local c = wayfinder.navigator:open("tt://fn/5?x=y#frag")
            return calls[1], c.made_by, wayfinder.navigator:top() == c
            """)
        #expect(result == [["function", "tt://fn/5?x=y#frag", "tt://fn/(id:int)", 5, "y", "frag"], "function", true])
    }

    @Test func queryValuesKeepTheirIdentity() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local shared, seen = { count = 0 }, nil
            local callback = function(n) shared.count = shared.count + n end
            local c = wayfinder.navigator:open { url = "tt://query/x", query = { data = shared, done = callback, self_ref = nil } }
            local query = calls[#calls][3]
            query.done(5)
            return query.data == shared, shared.count, query.done == callback
            """)
        #expect(result == [true, 5, true])
    }

    @Test func theControllerKnowsItsURLAndQueryBeforeItsConstructorRuns() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            local Seen = wf.controller "Seen"
            function Seen:initWithId(id) seen = { self.url, self.query.k, id } end
            wf.map:from("tt://seen/(initWithId:)", Seen)
            """)
        #expect(try app.run("wayfinder.navigator:open('tt://seen/7?k=v'); return seen") == [["tt://seen/7?k=v", "v", "7"]])
    }

    /// One class with every constructor; each round removes the one that won, so the next rule
    /// in the documented order must answer.
    @Test func theRulesApplyInOrder() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            All = wf.controller "All"
            for _, name in ipairs { "initWithFood", "initWithName", "initWithName:", "initWithName_query", "initWithName:query:", "init" } do
              All[name] = function(self) winner = name end
            end
            wf.map:from("tt://all/(initWithName:)", All, { selector = "initWithFood:" })
            NoParams = wf.controller "NoParams"
            for _, name in ipairs { "initWithNavigatorURL_query", "init" } do
              NoParams[name] = function(self) winner = name end
            end
            wf.map:from("tt://none", NoParams)
            """)
        let order = ["initWithFood", "initWithName", "initWithName:", "initWithName_query", "initWithName:query:", "init", "(none)"]
        for expected in order {
            let winner = try app.run("winner = '(none)'; assert(wayfinder.navigator:open('tt://all/x')); return winner")
            #expect(winner == [.string(expected)])
            try app.run("All['\(expected)'] = nil")
        }
        for expected in ["initWithNavigatorURL_query", "init", "(none)"] {
            #expect(try app.run("winner = '(none)'; assert(wayfinder.navigator:open('tt://none')); return winner") == [.string(expected)])
            try app.run("NoParams['\(expected)'] = nil")
        }
    }
}

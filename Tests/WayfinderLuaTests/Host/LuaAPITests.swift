import Testing
import Wayfinder
@testable import WayfinderLua

@Suite("The Lua API through the host")
struct LuaAPITests {
    static let menuApp = """
        local wf = require "wayfinder"
        local Menu = wf.controller "Menu"
        function Menu:initWithMenu_page(menu, page) self.menu = menu end
        wf.map:from("tt://menu/(initWithMenu:int)/(page:int)", Menu)
        wf.map:from("tt://menu/(initWithMenu:int)", Menu, { mode = "share", name = "menu" })
        wf.map:from("tt://order?waitress=(initWithWaitress:)", function(route) return {} end, { mode = "modal" })
        wf.map:from("*", function(route) return {} end)
        """

    @Test func matchReturnsTheRouteTable() throws {
        let app = try TestApp(Self.menuApp)
        let results = try app.run("""
            local r = wayfinder.map:match("tt://menu/1/5?x=1#top")
            return r.pattern, r.params.initWithMenu, r.params.page, r.query.x, r.fragment, r.mode, r.selector, r.method, r.url, math.type(r.params.page), r.target.__name
            """)
        #expect(results == ["tt://menu/(initWithMenu:int)/(page:int)", 1, 5, "1", "top", "create", "initWithMenu:page:", "initWithMenu_page", "tt://menu/1/5?x=1#top", "integer", "Menu"])
        let order = try app.run("""
            local r = wayfinder.map:match("tt://order?waitress=Betty&table=4")
            return r.params.initWithWaitress, r.query.table, r.query.waitress, r.mode, r.method, type(r.target)
            """)
        #expect(order == ["Betty", "4", .null, "modal", .null, "function"])
    }

    @Test func noMatchIsNilAndAReason() throws {
        let app = try TestApp("local wf = require 'wayfinder'\nwf.map:from('tt://a', function() end)")
        #expect(try app.run("return wayfinder.map:match('tt://b')") == [.null, "no route matches"])
        #expect(try app.run("return wayfinder.map:match('tt://a/%zz')") == [.null, "invalid percent escape in the path at byte 7"])
        #expect(try app.run("return wayfinder.map:match(42)") == [.null, "a URL must be a string, got number"])
        #expect(try app.run("return wayfinder.map:match('tt://a\\0b')") == [.null, "control character at byte 6"])
    }

    @Test func routesAndRemove() throws {
        let app = try TestApp(Self.menuApp)
        let listed = try app.run("""
            local out = {}
            for _, r in ipairs(wayfinder.map:routes()) do out[#out + 1] = r.pattern end
            return table.concat(out, " ")
            """)
        // Host and path specificity first: the menu routes outrank a host with a query.
        #expect(listed == ["tt://menu/(initWithMenu:int)/(page:int) tt://menu/(initWithMenu:int) tt://order?waitress=(initWithWaitress:) *"])
        #expect(try app.run("return wayfinder.map:remove('tt://menu/(initWithMenu:int)'), wayfinder.map:remove('tt://nope')") == [true, false])
        #expect(try app.run("return wayfinder.map:match('tt://menu/1').pattern") == ["*"])
        #expect(app.host.routes.count == 3)
    }

    @Test func constructorDeduction() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            local A = wf.controller "A"; function A:initWithFood(f) end; function A:other(f) end
            local B = wf.controller "B"; B["initWithMenu:page:"] = function(self, m, p) end
            local C = wf.controller "C"; function C:initWithMenu_page_query(m, p, q) end
            local D = wf.controller "D"; function D:initWithNavigatorURL_query(u, q) end
            local E = wf.controller "E"; function E:init(route) end
            local F = wf.controller "F"
            local Base = wf.controller "Base"; function Base:initWithName(n) end
            local G = wf.controller("G", Base)
            wf.map:from("tt://a/(initWithFood:)", A, { selector = "other:" })
            wf.map:from("tt://b/(initWithMenu:)/(page:)", B)
            wf.map:from("tt://c/(initWithMenu:)/(page:)", C)
            wf.map:from("tt://d/home", D)
            wf.map:from("tt://e/(x)", E)
            wf.map:from("tt://f/(x)", F)
            wf.map:from("tt://g/(initWithName:)", G)
            """)
        func method(_ url: String) throws -> Value? {
            try app.run("local r = wayfinder.map:match('\(url)'); return r.method").first
        }
        #expect(try method("tt://a/pie") == "other")
        #expect(try method("tt://b/1/2") == "initWithMenu:page:")
        #expect(try method("tt://c/1/2") == "initWithMenu_page_query")
        #expect(try method("tt://d/home") == "initWithNavigatorURL_query")
        #expect(try method("tt://e/1") == "init")
        #expect(try method("tt://f/1") == .null)
        #expect(try method("tt://g/Ann") == "initWithName")
        #expect(try app.host.match("tt://c/1/2").selector == "initWithMenu:page:query:")
    }

    @Test func controllerClasses() throws {
        let app = try TestApp("")
        let results = try app.run("""
            local wf = wayfinder
            local Base = wf.controller "Base"
            function Base:hello() return "hello from " .. self.kind end
            local Sub = wf.controller("Sub", Base)
            Sub.kind = "sub"
            local a = Sub:new { url = "tt://x" }
            local b = setmetatable({}, Sub)
            return Sub.__index == Sub, getmetatable(Sub) == Base, a:hello(), getmetatable(b) == Sub, tostring(a), rawget(Sub, "__name")
            """)
        #expect(results == [true, true, "hello from sub", true, "Sub tt://x", "Sub"])
        #expect(throws: ScriptError.self) { try app.run("wayfinder.controller(42)") }
        #expect(throws: ScriptError.self) { try app.run("wayfinder.controller('X', 'not a class')") }
    }

    @Test func customTypes() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            wf.map:type("slug", "[a-z0-9-]+")
            wf.map:type("even", function(text)
              local n = math.tointeger(tonumber(text))
              if n and n % 2 == 0 then return n end
            end)
            wf.map:from("tt://post/(s:slug)", function() end)
            wf.map:from("tt://n/(v:even)", function() end)
            wf.map:from("tt://post/(s)", function() end)
            """)
        #expect(try app.run("return wayfinder.map:match('tt://post/hello-1').pattern") == ["tt://post/(s:slug)"])
        #expect(try app.run("return wayfinder.map:match('tt://post/Hello').pattern") == ["tt://post/(s)"])
        #expect(try app.run("local r = wayfinder.map:match('tt://n/4'); return r.params.v, math.type(r.params.v)") == [4, "integer"])
        #expect(try app.run("return wayfinder.map:match('tt://n/3')") == [.null, "no route matches"])
    }

    @Test func urlGeneration() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            Record = wf.controller "Record"
            Contact = wf.controller("Contact", Record)
            wf.map:url(Record, "tt://record/(id:int)")
            wf.map:url(Contact, "tt://contact/(objectID:id)")
            wf.map:url(Contact, "edit", "tt://contact/(objectID:id)/edit?tab=(album.title)")
            """)
        let token = ObjectID.encode("x-coredata://U/Contact/p3")
        #expect(try app.run("return wayfinder.url_for(Contact:new { objectID = 'x-coredata://U/Contact/p3' })") == [.string("tt://contact/\(token)")])
        #expect(try app.run("return wayfinder.map:url_for(Contact:new { objectID = 'x-coredata://U/Contact/p3', album = { title = 'a b' } }, 'edit')")
            == [.string("tt://contact/\(token)/edit?tab=a%20b")])
        #expect(try app.run("return wayfinder.url_for(Record:new { id = 7 })") == ["tt://record/7"])
        // Inherited generators are found through the class's bases.
        let Sub = try app.run("local S = wayfinder.controller('S', Record); return wayfinder.url_for(S:new { id = 8 })")
        #expect(Sub == ["tt://record/8"])
        #expect(try app.run("return wayfinder.url_for(Contact:new {})") == [.null, "cannot make a URL from 'tt://contact/(objectID:id)': field 'objectID' is nil"])
        #expect(try app.run("return wayfinder.url_for(Record:new { id = 'x' })") == [.null, "cannot make a URL from 'tt://record/(id:int)': field 'id' = 'x' is not a valid int"])
        #expect(try app.run("return wayfinder.url_for({})") == [.null, "no URL generator for this object"])
        #expect(try app.run("return wayfinder.url_for(Record:new { id = 1 }, 'edit')") == [.null, "no URL generator named 'edit' for Record"])
        #expect(throws: ScriptError.self) { try app.run("wayfinder.map:url(Record, 'tt://x/()')") }
    }

    @Test func codec() throws {
        let app = try TestApp("")
        let token = ObjectID.encode("naïve café")
        #expect(try app.run("return wayfinder.codec.encode_id('naïve café')") == [.string(token)])
        #expect(try app.run("return wayfinder.codec.decode_id('\(token)')") == ["naïve café"])
        #expect(try app.run("return wayfinder.codec.decode_id('Zm9v=')") == [.null, "malformed id token: padding '=' at 4 is not part of a token"])
        #expect(try app.run("return wayfinder.codec.escape('a b/c')") == ["a%20b%2Fc"])
        #expect(try app.run("return wayfinder.codec.unescape('a%20b')") == ["a b"])
        #expect(try app.run("return wayfinder.codec.unescape('%zz')") == [.null, "invalid percent escape at byte 0"])
        #expect(try app.run("return wayfinder.codec.query({ b = 'x y', a = { '1', '2' }, flag = true, off = false, n = 3 })") == ["a=1&a=2&b=x%20y&flag&n=3"])
        #expect(try app.run("local q = wayfinder.codec.parse_query('q=a+b&x&q=2'); return q.q[1], q.q[2], q.x") == ["a+b", "2", true])
        #expect(try app.run("return wayfinder.codec.parse_query('q=%E0%A4')") == [.null, "invalid UTF-8 after decoding"])
        #expect(try app.run("return wayfinder.codec.query({ t = { x = 1 } })") == [.null, "query value for 't' is a table; only strings, numbers, booleans and lists of them can be written"])
        #expect(throws: ScriptError.self) { try app.run("wayfinder.codec.escape(nil)") }
    }

    @Test func appSettings() throws {
        let app = try TestApp("local wf = require 'wayfinder'\nwf.app { name = 'demo', tabs = { 'tt://a', 'tt://b' }, persistence = 'all', expiration = 60 }")
        #expect(app.host.config == AppConfig(name: "demo", tabs: ["tt://a", "tt://b"], persistence: .all, expiration: 60))
    }

    @Test func printGoesToTheSink() throws {
        let app = try TestApp("print('hello', 1, nil)")
        #expect(app.printed == ["hello\t1\tnil"])
    }

    /// Lua -> map:match (Swift) -> type function (Lua) -> error: the error reaches the Lua caller
    /// with its position, and nothing leaks, however often it happens.
    @Test func errorsThroughNestedCallsLeakNothing() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            wf.map:type("boom", function(text)
              if text == "bad" then error("type check failed for " .. text) end
              return text
            end)
            wf.map:from("tt://x/(v:boom)", function() end)
            """)
        let state = app.host.state
        func round() throws {
            let results = try app.run("""
                local ok, err = pcall(wayfinder.map.match, wayfinder.map, "tt://x/bad")
                local good = wayfinder.map:match("tt://x/fine")
                return ok, err, good.params.v
                """)
            #expect(results.count == 3)
            #expect(results[0] == false)
            #expect(results[1].stringValue?.contains("app.lua:3: type check failed for bad") == true)
            #expect(results[2] == "fine")
        }
        try round()
        try state.collectGarbage()
        let memory = state.memoryInUse
        let top = state.stackTop
        let references = state.liveReferenceCount
        for _ in 0..<300 { try round() }
        try state.collectGarbage()
        #expect(state.stackTop == top)
        #expect(state.liveReferenceCount == references)
        #expect(state.memoryInUse < memory + 64 * 1024, "memory grew from \(memory) to \(state.memoryInUse)")
        // And straight from Swift, the error arrives as a ScriptError.
        #expect(throws: ScriptError.self) { try app.host.match("tt://x/bad") }
        #expect(try app.host.match("tt://x/ok").match?.params == ["v": "ok"])
    }

    @Test func aLoopInATypeFunctionStopsTheMatchNotTheApp() throws {
        let app = try TestApp("""
            local wf = require "wayfinder"
            wf.map:type("slow", function(text) while true do end end)
            wf.map:from("tt://x/(v:slow)", function() end)
            wf.map:from("tt://y/(v)", function() end)
            """)
        do {
            _ = try app.host.match("tt://x/1")
            Issue.record("the loop should have been stopped")
        } catch {
            #expect(error.kind == .timeout)
        }
        #expect(try app.host.match("tt://y/1").match != nil)
    }
}

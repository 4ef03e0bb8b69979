import Testing
import Wayfinder
@testable import WayfinderLua

/// `wf.context` from Lua: the chain rules, values, typed fields, observers, and the navigator
/// handing contexts to controllers.
@Suite("wf.context")
struct ContextBindingTests {
    static let app = """
        local wf = require "wayfinder"
        Screen = wf.controller "Screen"
        function Screen:initWithName(name) self.name = name end
        wf.map:from("tt://screen/(initWithName:)", Screen)
        wf.map:from("tt://fn", function(route) return { from_function = true, route_context = route.context } end)
        """

    @Test func theChainRulesFromLua() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local wf = wayfinder
            local base = wf.context { name = "base", inner = false }
            local c2 = wf.context { inner = base }
            local c3 = wf.context { inner = c2 }
            local c4 = wf.context { inner = c3 }
            base:set("k0", "v0"); c2:set("k1", "v1"); c3:set("k2", "v2")
            local walked = { c4:get("k0"), c4:get("k1"), c4:get("k2") }
            local named = { c4:get("k0", "base"), c4:get("k1", "base") == nil }
            c4:set("k0", "shadow", "base")
            c4:set("k0", "outer")
            local shadowing = { c4:get("k0"), c4:get("k0", "base") }
            c4:set("nothing", nil)
            c4:remove("k0")
            local removed = { c4:get("k0"), c4:remove("k1"), c4:get("k1"), c2:remove("k1"), c4:get("k1") == nil }
            return walked, named, shadowing, removed, c4:get("nothing") == nil, c4:keys()
            """)
        #expect(result == [["v0", "v1", "v2"], ["v0", true], ["outer", "shadow"], ["shadow", false, "v1", true, true], true,
                           ["nothing", "k2", "k0"]])
    }

    @Test func everyContextEndsInTheAppContext() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local wf = wayfinder
            wf.context.app:set("userId", "12345")
            local flow = wf.context {}
            return flow:get("userId"), flow:get("userId", "app"), wf.context.app.name, flow.name, tostring(wf.context.app)
            """)
        #expect(result == ["12345", "12345", "app", .null, "wf.context 'app'"])
    }

    @Test func plainValuesAreCopiedOthersHeldByReference() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local ctx = wayfinder.context {}
            local plain = { 1, 2, 3 }
            local fn = function() return "hi" end
            local object = setmetatable({}, { __index = { kind = "object" } })
            ctx:set("plain", plain); ctx:set("fn", fn); ctx:set("object", object)
            plain[1] = 99
            return ctx:get("plain")[1], ctx:get("plain") == plain, ctx:get("fn") == fn, ctx:get("fn")(), ctx:get("object") == object, ctx:dump()
            """)
        #expect(result.prefix(5) == [1, false, true, "hi", true])
        let dump = try #require(result[5].stringValue)
        #expect(dump.contains("1:plain = {1, 2, 3}"))
        #expect(dump.contains("1:fn = <function #"))
        #expect(dump.contains("1:object = <table #"))
        #expect(dump.hasSuffix("0:--- app ---"))
    }

    @Test func typedFields() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local person = wayfinder.context { fields = { age = "int", name = "string" } }
            person.age = 3; person.name = "Jane"
            return person.age, person.name, person:get("age"), person.missing
            """)
        #expect(result == [3, "Jane", 3, .null])
        let errors = [
            "local p = wayfinder.context { fields = { age = 'int' } }; p.age = 'x'": "spec:1: field 'age' is int, got a string",
            "local p = wayfinder.context { fields = { age = 'int' } }; p.colour = 1": "spec:1: ctx.colour is not a field of this context (use ctx:set(key, value), or declare fields)",
            "wayfinder.context { fields = { age = 'integer' } }": "spec:1: wf.context: field 'age': its type must be one of int, number, string, boolean, table, function, any; got 'integer'",
            "wayfinder.context { fields = { get = 'int' } }": "spec:1: wf.context: field 'get' would hide a method",
            "wayfinder.context { nam = 'x' }": "spec:1: wf.context: unknown option 'nam' (known: name, inner, fields)",
            "wayfinder.context { inner = {} }": "spec:1: wf.context: inner must be a context (made by wf.context), got table",
            "wayfinder.context {}:set('', 1)": "spec:1: a context key must be a non-empty string, got an empty string",
            "wayfinder.context {}:set(5, 1)": "spec:1: a context key must be a non-empty string, got number",
            "wayfinder.context {}:get('k', 'nope')": "spec:1: no context named 'nope' in this chain",
            "wayfinder.context {}.get('k')": "spec:1: call it as ctx:get(...), with a colon",
        ]
        for (source, message) in errors {
            #expect("\(source)") { try app.run(source) } throws: { ($0 as? ScriptError)?.message == message }
        }
    }

    @Test func observersFireAndAreHeldWeakly() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local ctx = wayfinder.context { name = "flow" }
            local inner_seen, log = 0, {}
            local owner = { name = "owner" }
            -- The callback captures its owner: the owner is still held weakly.
            ctx:observe("color", owner, function(o, value, key) log[#log + 1] = o.name .. ":" .. key .. "=" .. tostring(value) .. ":" .. tostring(o == owner) end)
            wayfinder.context.app:observe("color", owner, function() inner_seen = inner_seen + 1 end)
            local outer = wayfinder.context { inner = ctx }
            ctx:set("color", "Blue")
            outer:set("color", "Red", "flow")
            outer:set("color", "Green")
            ctx:set("size", "L")
            owner = nil
            collectgarbage(); collectgarbage()
            ctx:set("color", "after")
            return log, inner_seen
            """)
        #expect(result == [["owner:color=Blue:true", "owner:color=Red:true"], 0])
    }

    @Test func unobserveAndErrorsInObservers() throws {
        let app = try TestApp(Self.app)
        var warnings: [String] = []
        app.host.warn = { warnings.append($0) }
        let result = try app.run("""
            local ctx = wayfinder.context {}
            local a, b, calls = {}, {}, {}
            ctx:observe("k", a, function() error("observer broke") end)
            ctx:observe("k", b, function(_, v) calls[#calls + 1] = v end)
            ctx:set("k", 1)
            ctx:unobserve(b)
            ctx:set("k", 2)
            return ctx:get("k"), calls
            """)
        #expect(result == [2, [1]])
        #expect(warnings == ["observer of 'k': spec:3: observer broke", "observer of 'k': spec:3: observer broke"])
    }

    /// Observers owned by a controller go when it leaves the tree, whether the app observed
    /// anything before the controller was made or not.
    @Test(arguments: [false, true])
    func observersLeaveWithTheirController(observedEarlier: Bool) throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local wf, nav = wayfinder, wayfinder.navigator
            heard = {}
            if \(observedEarlier) then wf.context.app:observe("other", wf, function() end) end
            nav:open("tt://screen/home")
            local screen = nav:open("tt://screen/listener")
            wf.context.app:observe("k", screen, function(owner, v) heard[#heard + 1] = owner.name .. "=" .. v end)
            wf.context.app:set("k", 1)
            nav:back()
            wf.context.app:set("k", 2)
            return heard
            """)
        #expect(result == [["listener=1"]])
    }

    @Test func theNavigatorHandsContextsForward() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav, wf = wayfinder.navigator, wayfinder
            wf.context.app:set("user", "jane")
            local first = nav:open("tt://screen/a")
            first.context:set("color", "Blue")
            local second = nav:open("tt://screen/b")
            local given = wf.context { name = "given" }
            local third = nav:open { url = "tt://screen/c", context = given }
            local fn = nav:open("tt://fn")
            return first.context ~= second.context, second.context:get("color"), second.context:get("user"),
              third.context == given, third.context:get("color") == nil, fn.context == fn.route_context, fn.context:get("user")
            """)
        #expect(result == [true, "Blue", "jane", true, true, true, "jane"])
        #expect("wayfinder.navigator:open { url = 'tt://screen/x', context = {} }") { try app.run("wayfinder.navigator:open { url = 'tt://screen/x', context = {} }") } throws: {
            ($0 as? ScriptError)?.message == "spec:1: nav:open: action field 'context' must be a context (made by wf.context), got table"
        }
    }

    /// The layer an open makes gets its Swift layer when something first uses it, and its inner
    /// layers with it, chained as they were opened: a value set later on the first screen's layer
    /// reaches the third through the second.
    @Test func aLayerUsedLateIsChainedAsItWasOpened() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local a = nav:open("tt://screen/a")
            local b = nav:open("tt://screen/b")
            local c = nav:open("tt://screen/c")
            c.context:set("own", 3)
            a.context:set("color", "Blue")
            b.context:set("size", "L")
            return c.context:get("color"), c.context:get("size"), b.context:get("own") == nil, a.context:get("size") == nil,
              c.context:dump()
            """)
        #expect(result == ["Blue", "L", true, true, "3:--- (unnamed) ---\n3:own = 3\n2:--- (unnamed) ---\n2:size = L\n1:--- (unnamed) ---\n1:color = Blue\n0:--- app ---"])
    }

    /// An open that nothing asks its context of makes no Swift layer (the userdata a context
    /// object holds): the first use makes it, and saving the tree reaches every layer.
    @Test func anUntouchedLayerHoldsNoSwiftLayerUntilUsed() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav = wayfinder.navigator
            local function swift_layers(ctx)
              local n = 0
              for _, value in next, ctx do if type(value) == "userdata" then n = n + 1 end end
              return n
            end
            local a = nav:open("tt://screen/a")
            local b = nav:open("tt://screen/b")
            local untouched = { swift_layers(a.context), swift_layers(b.context) }
            b.context:keys()
            return untouched, { swift_layers(a.context), swift_layers(b.context) }, swift_layers(wayfinder.context.app)
            """)
        #expect(result == [[0, 0], [1, 1], 1])
        try app.run("for i = 1, 20 do assert(wayfinder.navigator:open('tt://screen/s' .. i)) end")
        let captured = app.host.capturedState(everyEntry: true)
        #expect(captured.contexts.count == 23, "the app context and 22 screens' layers")
    }

    @Test func observersLeaveWithTheirController() throws {
        let app = try TestApp(Self.app)
        let result = try app.run("""
            local nav, wf = wayfinder.navigator, wayfinder
            local seen = {}
            nav:open("tt://screen/a")
            local b = nav:open("tt://screen/b")
            wf.context.app:observe("theme", b, function(owner, value) seen[#seen + 1] = owner.name .. "=" .. value end)
            wf.context.app:set("theme", "dark")
            nav:back()
            wf.context.app:set("theme", "light")
            return seen
            """)
        // b is still referenced by this chunk (a local), yet its observer went when it left the tree.
        #expect(result == [["b=dark"]])
    }
}

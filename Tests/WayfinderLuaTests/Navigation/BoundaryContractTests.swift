import Testing
import Wayfinder
@testable import WayfinderLua

/// The contracts between the host and lua/wayfinder/navigator.lua hold by name: the route fields
/// `make` takes, the record `persist` answers, the action table `native.open` reads.
@Suite("The Lua/Swift boundary by name")
struct BoundaryContractTests {
    static let app = """
        local wf = require "wayfinder"
        local Item = wf.controller "Item"
        function Item:initWithItem(id) self.id = id end
        function Item:persist(state) state.seen = self.id end
        function Item:model_id(index) return "model-" .. index end
        function Item:index_of(id) return tonumber(id:match("%d+")) end
        function Item:restore(state) self.restored = state.k end
        wf.map:from("tt://item/(initWithItem:int)", Item)
        wf.map:from("tt://page", function(route) page_route = route; return {} end)
        wf.app { name = "contract" }
        """

    /// What `make` would say of the host's list with `names` in its place.
    private func disagreement(_ app: TestApp, _ names: [String]) throws -> Value {
        // The list as the host hands it over: four places a field (name, symbol, type, host).
        let list = names.map { "'\($0)', '\($0)', 'any', false" }.joined(separator: ", ")
        return try app.run("return require('wayfinder.host').fields_disagree({ \(list) })").first ?? .null
    }

    /// A function of `wayfinder.native.navigator` (which only the bundled modules may require),
    /// lent again under a name the test can reach.
    private func native(_ app: TestApp, _ name: String) throws -> Value.Handle {
        let functions = NavigatorBinding.functions.filter { $0.0 == name }
        try app.host.state.registerLibrary("contract.\(name)", functions)
        guard case .handle(let function)? = try app.run("return require('contract.\(name)').\(name)").first else {
            throw ScriptError(kind: .runtime, message: "wayfinder.native.navigator has no \(name)")
        }
        return function
    }

    @Test("make takes the route fields the host passes, in the host's order")
    func routeFieldsAgree() throws {
        let app = try TestApp(Self.app)
        #expect(try disagreement(app, MakeField.names) == .null)
    }

    @Test("a host list that differs from make's parameters is named, field and place")
    func routeFieldsDisagree() throws {
        let app = try TestApp(Self.app)
        var swapped = MakeField.names
        swapped.swapAt(0, 1)
        #expect(try disagreement(app, swapped) == "make takes field 1 as 'url' but the host passes 'pattern' there")
        let short = Array(MakeField.names.dropLast())
        #expect(try disagreement(app, short) == "make takes field 9 as 'state' but the host passes 'nil' there")
        let long = MakeField.names + ["extra"]
        #expect(try disagreement(app, long) == "make takes field 10 as 'nil' but the host passes 'extra' there")
    }

    @Test("a function target gets the route's fields by name")
    func functionTargetSeesNamedFields() throws {
        let app = try TestApp(Self.app)
        try app.run("assert(require('wayfinder').navigator:open { url = 'tt://page?x=1#top', state = { n = 2 } })")
        let route = try app.run("return page_route.url, page_route.pattern, page_route.query.x, page_route.fragment, page_route.state.n")
        #expect(route == [.string("tt://page?x=1#top"), .string("tt://page"), .string("1"), .string("top"), .int(2)])
    }

    @Test("persist answers a record the host reads by name: state, selection and anchor by model id")
    func persistRecordByName() throws {
        let app = try TestApp(Self.app)
        try app.run("local c = assert(require('wayfinder').navigator:open('tt://item/7')); c.selected = 3; c.anchor = 4")
        let saved = app.host.capturedState()
        let entry = try #require(saved.entries.first)
        #expect(entry.state == .map(["seen": .int(7)]))
        #expect(entry.model?.selected == .string("model-3"))
        #expect(entry.model?.anchor == .string("model-4"))
    }

    @Test("native.open reads the action by name; a field of the wrong type names the action's argument")
    func openReadsActionByName() throws {
        let app = try TestApp(Self.app)
        let open = try native(app, "open")
        let error = #expect(throws: ScriptError.self) {
            try app.host.state.call(open, [.string("tt://item/1"), .map(["parent": .int(5)])])
        }
        #expect(error?.message.contains("bad argument #2") == true)
        #expect(error?.message.contains("action.parent: string expected, got number") == true)
        #expect(app.host.navigator.tree.allEntries.isEmpty)
        // Unknown fields are the Lua wrapper's to refuse; the native side reads what it knows.
        guard case .handle(let controller)? = try app.host.state.call(open, [.string("tt://item/2"), .map(["animated": .bool(false), "state": .map(["k": .int(1)])])]).first else {
            Issue.record("open made no controller")
            return
        }
        guard case .handle(let restored)? = try app.run("return function(c) return c.restored end").first else {
            Issue.record("no function came back")
            return
        }
        let opened = try app.host.state.call(restored, [.handle(controller)])
        #expect(opened == [.int(1)])
    }
}

import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// A script's value nested too deep or holding itself, handed to the host: refused at the script's
/// line, naming the function and the value's path in the script's words; and a value the host
/// took (at most 100 levels deep) always goes back to Lua and into the saved state, whatever
/// levels of its own the host wraps around it.
@Suite("Values nested too deep, or holding themselves")
struct NestedValueTests {
    static let prelude = """
        wf = require 'wayfinder'
        nav = wf.navigator
        function deep(n) local t = {} local c = t for _ = 1, n - 1 do c.x = {} c = c.x end return t end
        function cycle() local t = { a = {} } t.a.back = t return t end
        wf.map:from('tt://p/(id)', function(route) seen = route.state; query = route.query return {} end)

        """

    @Test(arguments: [
        ("local ok = nav:open { url = 'tt://p/1', state = deep(200) }",
         "app.lua:7: nav:open: action field 'state' is not plain data: state.x.x.x.x.….x.x (100 levels down): table is nested more than 100 levels deep"),
        ("local ok = nav:open { url = 'tt://p/1', state = cycle() }",
         "app.lua:7: nav:open: action field 'state' is not plain data: state.a.back: table contains itself (a cycle)"),
        ("local c = wf.context { fields = deep(200) }",
         "app.lua:7: wf.context: fields.x.x.x.x.….x.x (100 levels down): table is nested more than 100 levels deep"),
        ("nav.persistence = cycle()",
         "app.lua:7: nav.persistence.a.back: table contains itself (a cycle)"),
    ])
    func aBadValueIsRefusedAtTheScriptsLine(_ line: String, _ expected: String) throws {
        let message = try loadFailure(Self.prelude + "\n" + line + "\n")
        #expect(message == expected, "\(message ?? "loaded")")
    }

    @Test func theCodecAnswersWithAReasonInItsOwnName() throws {
        let app = try TestApp(Self.prelude)
        #expect(try app.run("return wf.codec.query(cycle())") == [.null, "wf.codec.query: query.a.back: table contains itself (a cycle)"])
        #expect(try app.run("return wf.codec.query({ a = deep(150) })")
            == [.null, "wf.codec.query: query.a.x.x.x.….x.x (100 levels down): table is nested more than 100 levels deep"])
    }

    /// A query value too deep to be data is held by reference and reaches the constructor; it is
    /// not written into the saved state.
    @Test func aDeepQueryValueReachesTheConstructor() throws {
        let app = try TestApp(Self.prelude)
        let results = try app.run("""
            local value = deep(150)
            local made, why = nav:open { url = 'tt://p/1', query = { v = value } }
            return made ~= nil, why, query.v == value
            """)
        #expect(results == [true, .null, true])
    }

    /// The deepest state nav:open takes (100 levels) is saved and given back at the next launch,
    /// though the record `persist` answers and the saved entry wrap it in levels of their own.
    @Test func theDeepestStateTakenIsSavedAndRestored() throws {
        let directory = try TemporaryDirectory()
        let statePath = directory.subpath("state.json")
        let source = Self.prelude + """
            local Keeper = wf.controller 'Keeper'
            function Keeper:init(route) self.kept = route.state end
            function Keeper:persist(state) state.kept = self.kept end
            function Keeper:restore(state) restored = state.kept end
            wf.map:from('tt://keep', Keeper)
            wf.app { name = 'deep', root = 'tt://p/0' }
            """
        let first = try Launch(source, state: statePath)
        try first.run("assert(nav:open { url = 'tt://keep', state = deep(99) })")
        try first.app.host.persist()
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        let second = try Launch(source, state: statePath)
        #expect(second.warnings.isEmpty, "\(second.warnings)")
        let depth = try second.run("local n, t = 0, restored while t do n = n + 1 t = t.x end return n")
        #expect(depth == [99])
    }

    /// A state of an older version goes through `migrate` inside the state document, whose own
    /// levels around it (the root, the tabs, the tab, the entry) are not counted either: the
    /// deepest state taken, kept in a tab's screen, is migrated and restored.
    @Test func theDeepestStateTakenGoesThroughAMigration() throws {
        let directory = try TemporaryDirectory()
        let statePath = directory.subpath("state.json")
        func source(version: Int) -> String {
            Self.prelude + """
                local Keeper = wf.controller 'Keeper'
                function Keeper:init(route) self.kept = route.state end
                function Keeper:persist(state) state.kept = self.kept end
                function Keeper:restore(state) restored = state.kept end
                wf.map:from('tt://keep', Keeper)
                wf.app { name = 'deep', tabs = { 'tt://p/0', 'tt://p/1' }, version = \(version),
                         migrate = function(state, from) migrated = from return state end }
                """
        }
        let first = try Launch(source(version: 1), state: statePath)
        try first.run("assert(nav:open { url = 'tt://keep', state = deep(99) })")
        try first.app.host.persist()
        #expect(first.warnings.isEmpty, "\(first.warnings)")
        let second = try Launch(source(version: 2), state: statePath)
        #expect(second.warnings.isEmpty, "\(second.warnings)")
        #expect(try second.run("return migrated") == [1])
        let depth = try second.run("local n, t = 0, restored while t do n = n + 1 t = t.x end return n")
        #expect(depth == [99])
    }

    /// A screen made again in its place (presentation `refresh`) is handed what its `persist`
    /// hook saved, inside the record the navigator module answers: the deepest state taken comes
    /// through it too.
    @Test func theDeepestStateTakenSurvivesARefresh() throws {
        let app = try TestApp(Self.prelude + """
            local Keeper = wf.controller 'Keeper'
            function Keeper:persist(state) state.kept = self.kept end
            function Keeper:restore(state) self.kept = state.kept end
            wf.map:from('tt://keep', Keeper)
            """)
        try app.run("first = assert(nav:open { url = 'tt://keep', state = { kept = deep(99) } })")
        let results = try app.run("""
            local again, why = nav:open { url = 'tt://keep', presentation = 'refresh' }
            local n, t = 0, again and again.kept
            while t do n = n + 1 t = t.x end
            return again ~= first, n, why
            """)
        #expect(results == [true, 99, .null])
    }
}

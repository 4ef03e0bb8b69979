import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// One launch of an app whose state lives in `statePath`: loaded, given the file store, launched.
/// `log` (a Lua global) records constructors, restores and appearances in order.
final class Launch {
    let app: TestApp
    var warnings: [String] = []

    init(_ source: String, state statePath: String, launch: Bool = true) throws {
        app = try TestApp(source)
        app.host.warn = { [unowned self] in warnings.append($0) }
        app.host.stateStore = FileStateStore(path: statePath)
        if launch { try app.host.launch() }
    }

    var log: [String] { (try? app.run("return log"))?.first?.arrayValue?.compactMap(\.stringValue) ?? [] }
    var made: Int { log.filter { $0.hasPrefix("make ") }.count }
    @discardableResult func run(_ source: String) throws -> [Value] { try app.run(source) }
    var tree: Value { app.host.navigator.tree.snapshot }
}

/// The tree with the `loaded` flags taken out, to compare shapes across launches.
func shapeOf(_ value: Value) -> Value {
    switch value {
    case .map(let map): return .map(map.filter { $0.key != "loaded" }.mapValues(shapeOf))
    case .array(let elements): return .array(elements.map(shapeOf))
    default: return value
    }
}

@Suite("Persistence from Lua")
struct PersistenceBindingTests {
    static func app(tabs: String = #"{ "tt://menu/1", "tt://menu/2", "tt://menu/3" }"#, extraRoutes: String = "",
                    options: String = #"persistence = "all""#) -> String {
        """
        local wf = require "wayfinder"
        log = log or {}
        local function note(text) log[#log + 1] = text end
        ORDER = ORDER or { "a", "b", "c", "d", "e" }

        local Screen = wf.controller "Screen"
        function Screen:init(route) note("make " .. self.url) end
        function Screen:appear() note("appear " .. self.url) end

        -- A note keeps what was typed; it may be marked important.
        local Note = wf.controller("Note", Screen)
        function Note:initWithText(text) note("make " .. self.url); self.text = text; self.edits = 0 end
        function Note:persist(state) state.edits = self.edits; state.draft = self.draft end
        function Note:restore(state) note("restore " .. self.url .. " edits=" .. state.edits); self.edits = state.edits; self.draft = state.draft end

        -- A list whose order changes between launches; rows known by identifier.
        local List = wf.controller("List", Screen)
        function List:model_id(index) return ORDER[index] end
        function List:index_of(id) for i, v in ipairs(ORDER) do if v == id then return i end end end

        local Declines = wf.controller("Declines", Screen)
        function Declines:persist() return false end

        local Fails = wf.controller("Fails", Screen)
        function Fails:persist(state) error("cannot save this") end

        local Odd = wf.controller("Odd", Screen)
        function Odd:persist(state) state.callback = function() end; state.kept = "yes" end

        wf.map:from("tt://menu/(id)", Screen, { mode = "share" })
        wf.map:from("tt://page/(id)", Screen)
        wf.map:from("tt://note/(initWithText:)", Note)
        wf.map:from("tt://modal/(id)", Screen, { mode = "modal" })
        wf.map:from("tt://pop", Screen, { mode = "popover" })
        wf.map:from("tt://list", List)
        wf.map:from("tt://declines", Declines)
        wf.map:from("tt://fails", Fails)
        wf.map:from("tt://odd", Odd)
        \(extraRoutes)
        wf.app { name = "persisting", tabs = \(tabs), \(options) }
        """
    }

    let directory: TemporaryDirectory
    let statePath: String

    init() throws {
        directory = try TemporaryDirectory()
        statePath = directory.subpath("state/app.json")
    }

    @Test func aRelaunchComesBackWhereItLeftOffMakingOnlyTheVisibleController() throws {
        let first = try Launch(Self.app(), state: statePath)
        try first.run("""
            local nav = wayfinder.navigator
            nav:open("tt://page/1")
            local n = nav:open { url = "tt://note/hello", query = { tag = "x", count = 2, onDone = function() end } }
            n.edits = 5; n.draft = { "line one", "line two" }
            nav:select(2)
            nav:open("tt://page/2")
            local flow = wayfinder.context { name = "flow", fields = { step = "int" } }
            flow.step = 3
            wayfinder.context.app:set("user", "ann")
            nav:open { url = "tt://modal/1", context = flow }
            nav:open("tt://note/inside")
            assert(nav:persist())
            """)
        #expect(first.warnings == ["not saved: tt://note/hello: query.onDone (a function) cannot be written to disk"])

        let second = try Launch(Self.app(), state: statePath)
        #expect(shapeOf(second.tree) == shapeOf(first.tree))
        #expect(second.log == ["make tt://note/inside", "restore tt://note/inside edits=0", "appear tt://note/inside"],
                "only the visible controller is made, its state handed over before it appears")
        #expect(try second.run("return wayfinder.context.app:get('user')") == ["ann"])

        try second.run("wayfinder.navigator:back()")
        #expect(second.log.suffix(2) == ["make tt://modal/1", "appear tt://modal/1"])
        #expect(try second.run("""
            local ctx = wayfinder.navigator:top().context
            return ctx.name, ctx.step, ctx:get("user"), wayfinder.context.is(ctx)
            """) == ["flow", 3, "ann", true], "the given context comes back, typed field, chain and all")

        try second.run("wayfinder.navigator:dismiss(); wayfinder.navigator:select(1)")
        #expect(second.log.suffix(3) == ["make tt://note/hello", "restore tt://note/hello edits=5", "appear tt://note/hello"])
        #expect(try second.run("""
            local n = wayfinder.navigator:top()
            return n.text, n.draft[2], n.query.tag, n.query.count, n.query.onDone
            """) == ["hello", "line two", "x", 2, .null])
        #expect(second.made == 4, "dismissing showed page/2; menu/1, page/1, menu/2 and menu/3 are still waiting")
        #expect(second.app.host.navigator.tree.allEntries.filter { !$0.isLoaded }.map(\.url) == ["tt://menu/1", "tt://page/1", "tt://menu/2", "tt://menu/3"])
    }

    @Test func lazyRestoreIsCountedInConstructorCalls() throws {
        let fourTabs = Self.app(tabs: #"{ "tt://menu/1", "tt://menu/2", "tt://menu/3", "tt://menu/4" }"#)
        let first = try Launch(fourTabs, state: statePath)
        try first.run("""
            local nav = wayfinder.navigator
            for tab = 1, 4 do
              nav:select(tab)
              for page = 1, 24 do nav:open("tt://page/" .. tab .. "-" .. page) end
            end
            nav:select(2)
            assert(nav:persist())
            """)
        #expect(first.made == 100)
        let second = try Launch(fourTabs, state: statePath)
        #expect(second.made == 1)
        #expect(second.app.host.navigator.tree.allEntries.count == 100)
        #expect(second.app.host.navigator.url == "tt://page/2-24")
        try second.run("wayfinder.navigator:select(4)")
        #expect(second.made == 2)
        try second.run("wayfinder.navigator:back(); wayfinder.navigator:back()")
        #expect(second.made == 4)
        #expect(try second.run("return wayfinder.navigator:tree().root.tabs[4].entries[23].loaded") == [true])
        #expect(try second.run("return wayfinder.navigator:tree().root.tabs[4].entries[22].loaded") == [false])
        #expect(try second.run("return wayfinder.navigator:tree().root.tabs[1].entries[1].loaded") == [false])
    }

    @Test func restoreAfterTheRouteMapChangedDropsWhatNoLongerOpens() throws {
        let first = try Launch(Self.app(extraRoutes: #"wf.map:from("tt://old/(id)", Screen)"#), state: statePath)
        try first.run("""
            local nav = wayfinder.navigator
            nav:open("tt://page/1"); nav:open("tt://old/1"); nav:open("tt://page/2"); nav:open("tt://old/2")
            assert(nav:persist())
            """)
        let second = try Launch(Self.app(), state: statePath)
        #expect(second.app.host.navigator.tree.allEntries.map(\.url) == ["tt://menu/1", "tt://page/1", "tt://page/2", "tt://menu/2", "tt://menu/3"])
        #expect(second.app.host.navigator.url == "tt://page/2")
        #expect(second.warnings.count == 3)
        #expect(second.warnings.prefix(2).allSatisfy { $0.hasPrefix("dropped 'tt://old/") })
        #expect(second.warnings.last?.hasPrefix("2 entries of the saved navigation state could not be restored; the saved state (\(statePath)) stays") == true)
    }

    @Test func aTabWhoseConstructorFailsAtRestoreStaysForALaterSelect() throws {
        let source = Self.app(tabs: #"{ "tt://menu/1", "tt://badtab" }"#, extraRoutes: """
            local Bad = wf.controller("Bad", Screen)
            function Bad:init(route) if not READY then error("not ready yet") end; note("make " .. self.url) end
            wf.map:from("tt://badtab", Bad)
            """)
        let first = try Launch(source, state: statePath)
        try first.run("READY = true; wayfinder.navigator:select(2); assert(wayfinder.navigator:persist())")
        #expect(first.app.host.navigator.url == "tt://badtab")

        let second = try Launch(source, state: statePath)
        #expect(second.app.host.navigator.tree.allEntries.map(\.url) == ["tt://menu/1", "tt://badtab"])
        #expect(second.app.host.navigator.url == "tt://menu/1")
        #expect(second.warnings.count == 1)
        #expect(second.warnings.first?.contains("'tt://badtab'") == true && second.warnings.first?.contains("not ready yet") == true,
                "\(second.warnings)")
        #expect(second.warnings.allSatisfy { !$0.hasPrefix("dropped") })
        try second.run("assert(wayfinder.navigator:persist())")
        let retried = try second.run("local ok, reason = wayfinder.navigator:select(2); return ok, reason")
        #expect(retried.first == .bool(false) || retried.first == .null, "\(retried)")
        #expect(second.app.host.navigator.url == "tt://menu/1")
        try second.run("READY = true; wayfinder.navigator:select(2)")
        #expect(second.app.host.navigator.url == "tt://badtab")

        let third = try Launch(source, state: statePath)
        #expect(third.app.host.navigator.tree.allEntries.map(\.url) == ["tt://menu/1", "tt://badtab"])
        #expect(third.warnings.allSatisfy { !$0.hasPrefix("dropped") && !$0.contains("added") }, "\(third.warnings)")
    }

    @Test func modesDecideWhatIsSavedAndNoneRemovesTheOldState() throws {
        let first = try Launch(Self.app(), state: statePath)
        try first.run("""
            local nav = wayfinder.navigator
            nav:open("tt://page/1"); nav:open("tt://modal/1"); nav:open("tt://page/2"); nav:open("tt://pop")
            nav.persistence = "top"
            assert(nav:persist())
            """)
        let top = try Launch(Self.app(options: #"persistence = "top""#), state: statePath)
        #expect(top.app.host.navigator.tree.allEntries.map(\.url) == ["tt://menu/1", "tt://menu/2", "tt://menu/3", "tt://modal/1"])

        try top.run("wayfinder.navigator.persistence = 'none'; assert(wayfinder.navigator:persist())")
        #expect(!FileManager.default.fileExists(atPath: statePath), "persistence none removes the saved state")
        #expect(try top.run("return wayfinder.navigator:restore()") == [false])

        // An app in mode none does not restore what another mode saved.
        try top.run("wayfinder.navigator.persistence = 'all'; assert(wayfinder.navigator:persist())")
        let none = try Launch(Self.app(options: #"persistence = "none""#), state: statePath)
        #expect(none.app.host.navigator.tree.allEntries.map(\.url) == ["tt://menu/1", "tt://menu/2", "tt://menu/3"])
    }

    @Test func expiredStateIsNotRestoredUnlessAnEntryIsImportant() throws {
        let first = try Launch(Self.app(), state: statePath)
        try first.run("wayfinder.navigator:open('tt://page/1'); assert(wayfinder.navigator:persist())")
        let later = try Launch(Self.app(options: #"persistence = "all", expiration = 60"#), state: statePath, launch: false)
        #expect(try later.app.host.restore(now: Date().addingTimeInterval(120)) == false)
        #expect(try later.app.host.restore(now: Date().addingTimeInterval(30)) == true)

        try first.run("local n = wayfinder.navigator:open('tt://note/keep'); n.important = true; assert(wayfinder.navigator:persist())")
        let muchLater = try Launch(Self.app(options: #"persistence = "all", expiration = 60"#), state: statePath, launch: false)
        #expect(try muchLater.app.host.restore(now: Date().addingTimeInterval(86_400)) == true)
        #expect(muchLater.app.host.navigator.url == "tt://note/keep")
    }

    @Test func aListFindsItsSelectionAndAnchorByIdentifierAfterItsOrderChanged() throws {
        let first = try Launch(Self.app(), state: statePath)
        try first.run("""
            local list = wayfinder.navigator:open("tt://list")
            list.selected = 3; list.anchor = 2   -- "c" and "b"
            assert(wayfinder.navigator:persist())
            """)
        let second = try Launch("ORDER = { 'e', 'c', 'a', 'b', 'd' }\n" + Self.app(), state: statePath)
        #expect(try second.run("local l = wayfinder.navigator:top(); return l.selected, l.anchor") == [2, 4])

        let gone = try Launch("ORDER = { 'a', 'b', 'd' }\n" + Self.app(), state: statePath)
        #expect(try gone.run("local l = wayfinder.navigator:top(); return l.selected, l.anchor") == [.null, 2],
                "an identifier that is gone clears the selection quietly")
        #expect(gone.warnings.isEmpty)
    }

    @Test func controllersThatDeclineFailOrHoldFunctionsAreSavedAsFarAsTheyCanBe() throws {
        let first = try Launch(Self.app(), state: statePath)
        try first.run("""
            local nav = wayfinder.navigator
            nav:open("tt://declines"); nav:open("tt://fails"); nav:open("tt://odd")
            assert(nav:persist())
            """)
        #expect(first.warnings.count == 2)
        #expect(first.warnings.contains { $0.hasPrefix("tt://fails: persist: ") && $0.contains("app.lua:25: cannot save this") })
        #expect(first.warnings.contains("not saved: tt://odd: state.callback (a function) cannot be written to disk"))
        try first.run("assert(wayfinder.navigator:persist())")
        #expect(first.warnings.count == 3, "a value left out is reported once; a failing hook every time")

        let second = try Launch(Self.app(), state: statePath)
        #expect(second.app.host.navigator.tree.allEntries.map(\.url) == ["tt://menu/1", "tt://fails", "tt://odd", "tt://menu/2", "tt://menu/3"])
    }

    @Test func persistAndRestoreFromLua() throws {
        let first = try Launch(Self.app(), state: statePath)
        #expect(try first.run("return wayfinder.navigator:restore()") == [false], "nothing saved yet")
        try first.run("wayfinder.navigator:open('tt://page/1')")
        #expect(try first.run("return wayfinder.navigator:persist()") == [true])
        try first.run("wayfinder.navigator:open('tt://page/2'); wayfinder.navigator:select(3)")
        #expect(try first.run("return wayfinder.navigator:restore(), wayfinder.navigator:url()") == [true, "tt://page/1"])

        let storeless = try TestApp(Self.app())
        let answer = try storeless.run("return wayfinder.navigator:persist()")
        #expect(answer.first == .null)
        #expect(answer.last?.stringValue?.contains("no state store") == true)
        #expect(try storeless.run("return wayfinder.navigator:restore()") == [false])
        #expect(throws: ScriptError.self) { try storeless.run("wayfinder.navigator.persist()") }
    }

    @Test func anUnreadableFileIsMovedAsideAndTheAppStartsFresh() throws {
        try directory.write("state/app.json", #"{"format":"wayfinder.navigation","version":1,"root":"#)
        let launch = try Launch(Self.app(), state: statePath)
        #expect(launch.app.host.navigator.url == "tt://menu/1")
        #expect(launch.warnings.count == 1)
        #expect(launch.warnings.first?.hasPrefix("the saved navigation state could not be read (") == true)
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory.subpath("state")).filter { $0.hasPrefix("app.json.corrupt-") }
        #expect(aside.count == 1)
        #expect(launch.warnings.first?.contains(aside[0]) == true)
    }

    @Test func anActionsStateIsHandedToRestoreToo() throws {
        let launch = try Launch(Self.app(), state: statePath)
        #expect(try launch.run("return wayfinder.navigator:open { url = 'tt://note/x', state = { edits = 9 } }.edits") == [9])
    }
}

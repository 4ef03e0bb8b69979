import Foundation
import OrderedCollections
import Testing
import Wayfinder
@testable import WayfinderLua

/// A store that keeps the state in memory and can neither keep a state aside nor mark launches.
private final class MemoryStore: StateStore {
    var state: NavigationState?
    func load() -> StateLoad { state.map(StateLoad.loaded) ?? .missing }
    func save(_ state: NavigationState) throws(StateStoreError) { self.state = state }
    func remove() throws(StateStoreError) { state = nil }
}

/// The guard and the migrations through the Swift host API: `AppHost.launch()` with a store.
@Suite("Launch guard and migrations from Swift")
struct LaunchGuardHostTests {
    /// Pages that cannot be made once the app context says `broken`; `version` and `migrate`
    /// as given.
    static func app(version: Int = 1, migrate: String? = nil, persistence: String = "all") -> String {
        """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:init(route)
          if wf.context.app:get("broken") then error("broken on purpose") end
        end
        wf.map:from("tt://home", Page)
        wf.map:from("tt://page/(id)", Page)
        wf.map:from("tt://break", function() wf.context.app:set("broken", true) end, { mode = "none" })
        wf.app { name = "guarded", root = "tt://home", persistence = "\(persistence)", version = \(version)\(migrate.map { ", migrate = " + $0 } ?? "") }
        """
    }

    func brokenState(at path: String) throws {
        let first = try Launch(Self.app(), state: path)
        try first.app.host.navigator.open("tt://page/1")
        try first.app.host.navigator.open("tt://break")
        try first.app.host.persist()
    }

    @Test func theThirdLaunchSetsAsideAStateThatStopsEveryLaunch() throws {
        let directory = try TemporaryDirectory()
        let path = directory.subpath("state.json")
        try brokenState(at: path)
        for count in 1...2 {
            let launch = try Launch(Self.app(), state: path, launch: false)
            #expect(throws: (any Error).self) { try launch.app.host.launch() }
            #expect(launch.warnings.last == "this launch did not get to its first screen with the saved navigation state (\(count) in a row); "
                + (count == 1 ? "the next launch restores it again; after 2 such launches in a row, the one after sets it aside"
                              : "the next launch sets it aside and starts fresh"))
            let mark = try #require(try FileStateStore(path: path).launchMark())
            #expect(mark.launches == count && mark.url == "tt://page/1" && mark.error?.contains("broken on purpose") == true)
        }
        let third = try Launch(Self.app(), state: path)
        #expect(third.app.host.navigator.url == "tt://home")
        #expect(third.warnings.count == 1)
        #expect(third.warnings.first?.hasPrefix("the saved navigation state stopped the last 2 launches before they showed a screen "
            + "(restoring 'tt://page/1': the last one failed with ") == true, "\(third.warnings)")
        #expect(try FileStateStore(path: path).launchMark() == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).contains { $0.hasPrefix("state.json.crashed-") })
    }

    @Test func aLaunchThatShowsItsFirstScreenLeavesNoMark() throws {
        let directory = try TemporaryDirectory()
        let path = directory.subpath("state.json")
        let first = try Launch(Self.app(), state: path)
        try first.app.host.navigator.open("tt://page/1")
        try first.app.host.persist()
        try FileStateStore(path: path).writeLaunchMark(LaunchMark(launches: 1, url: "tt://page/1"))
        let second = try Launch(Self.app(), state: path)
        #expect(second.app.host.navigator.url == "tt://page/1")
        #expect(second.warnings.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: path + ".launching"))
    }

    @Test func anAppThatSavesNothingIsNotGuarded() throws {
        let directory = try TemporaryDirectory()
        let path = directory.subpath("state.json")
        try FileStateStore(path: path).writeLaunchMark(LaunchMark(launches: 2, url: "tt://page/1"))
        let launch = try Launch(Self.app(persistence: "none"), state: path)
        #expect(launch.app.host.navigator.url == "tt://home")
        #expect(try FileStateStore(path: path).launchMark()?.launches == 2, "persistence none touches no file")
    }

    @Test func aStoreThatKeepsNoMarksRunsUnguardedAndSaysWhatBecomesOfAStateItCannotKeep() throws {
        let store = MemoryStore()
        store.state = NavigationState(app: "guarded", appVersion: 1, root: .stack([.init(url: "tt://page/4")]))
        let app = try TestApp(Self.app(version: 2, migrate: #"function() error("not this one") end"#))
        var warnings: [String] = []
        app.host.warn = { warnings.append($0) }
        app.host.stateStore = store
        try app.host.launch()
        #expect(app.host.navigator.url == "tt://home")
        #expect(warnings == ["the saved navigation state could not be migrated: its migration from version 1 to 2 (migrate at app.lua:9) failed: "
            + "app.lua:9: not this one; it is not restored, and the next save replaces it; the app starts fresh"])
        try app.host.persist()
        #expect(store.state?.appVersion == 2)
    }

    @Test func migratedIsOpenToSwiftAndNamesTheMigrationsLine() throws {
        let app = try TestApp(Self.app(version: 3, migrate: """
            function(state, from, to)
              state.stack[1].url = "tt://page/" .. from .. "-" .. to
              return state
            end
            """))
        #expect(app.host.config.version == 3)
        #expect(app.host.config.migration?.hasSuffix(":9") == true, "\(app.host.config.migration ?? "none")")
        let old = NavigationState(app: "guarded", appVersion: 2, root: .stack([.init(url: "tt://page/1")]))
        let migrated = try app.host.migrated(old)
        #expect(migrated.appVersion == 3)
        #expect(migrated.entries.map(\.url) == ["tt://page/2-3"])
        #expect(try app.host.migrated(migrated) == migrated, "a state of the app's own version is left as it is")

        let failing = try TestApp(Self.app(version: 3, migrate: "function() return 1 end"))
        let error = try #require(throws: MigrationError.self) { try failing.host.migrated(old) }
        #expect(error.from == 2 && error.to == 3 && error.migration.hasSuffix(":9"))
        #expect(error.reason == "it returned a number, not the state table (migrate returns the state)")
    }

    @Test func aMigrationMayNotSaveSoTheFileItKeepsAsideIsTheOneItWasGiven() throws {
        let directory = try TemporaryDirectory()
        let path = directory.subpath("state.json")
        let first = try Launch(Self.app(version: 2), state: path)
        try first.app.host.navigator.open("tt://page/7")
        try first.app.host.persist()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let migrating = try Launch(Self.app(version: 3, migrate: #"function() wayfinder.navigator:persist() error("oops") end"#), state: path)
        #expect(migrating.app.host.navigator.url == "tt://home")
        let aside = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.path).first { $0.hasPrefix("state.json.unmigrated-") })
        #expect(try String(contentsOfFile: directory.subpath(aside), encoding: .utf8) == text)
        // From Swift too: while a migration runs, the host neither saves nor restores.
        let asking = try TestApp(Self.app(version: 3, migrate: """
            function(state)
              local saved, why = wayfinder.navigator:persist()
              assert(saved == nil and why:find("being restored", 1, true), why)
              assert(wayfinder.navigator:open("tt://page/1") == nil)
              return state
            end
            """))
        asking.host.stateStore = FileStateStore(path: directory.subpath("other.json"))
        let migrated = try asking.host.migrated(NavigationState(app: "guarded", appVersion: 2, root: .stack([.init(url: "tt://page/1")])))
        #expect(migrated.appVersion == 3)
        #expect(!FileManager.default.fileExists(atPath: directory.subpath("other.json")))
        try asking.host.persist()
        #expect(FileManager.default.fileExists(atPath: directory.subpath("other.json")), "saving works again once it is done")
    }

    @Test func launchMigratesTheShopsVersionTwoStateToVersionThree() throws {
        let directory = try TemporaryDirectory()
        let path = directory.subpath("shop.json")
        try (#"{"format":"wayfinder.navigation","version":1,"app":"shop","app_version":2,"saved_at":"2033-05-18T03:30:00Z","mode":"all","#
            + #""root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://cart/ann","state":{"count":"2 pears, 1 fig"}}]},"modals":[],"#
            + #""pending":{"url":"tt://basket/4","state":{"count":"1 plum"},"since":"2033-05-18T03:30:00Z"}}"#).write(toFile: path, atomically: true, encoding: .utf8)
        let host = try AppHost(path: WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/shop").path,
                               limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300)), printSink: { _ in })
        var warnings: [String] = []
        host.warn = { warnings.append($0) }
        host.clock = { Date(timeIntervalSince1970: 2_000_000_000) }
        host.stateStore = FileStateStore(path: path)
        try host.launch()
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(host.navigator.url == "tt://cart?owner=ann")
        let cart = try #require(host.navigator.top)
        #expect(try host.bridge.render(cart)?.lines == ["2 x pears", "1 x fig"])
        #expect(host.navigator.pendingOpen?.request.url == "tt://checkout/4")
        #expect(host.navigator.pendingOpen?.request.state == ["lines": [["name": "plum", "quantity": 1]]])
        try host.persist()
        let saved = try NavigationState(document: JSON.decode(String(contentsOfFile: path, encoding: .utf8)))
        #expect(saved.appVersion == 3 && saved.pending?.url == "tt://checkout/4")
    }

    @Test func migrateSeesTheWaitingOpenByNameAndMayRewriteOrDropIt() throws {
        let since = Date(timeIntervalSince1970: 1_900_000_000)
        let old = NavigationState(app: "guarded", appVersion: 2, root: .stack([.init(url: "tt://page/1")]),
                                  pending: .init(url: "tt://page/old", query: ["note": "ring"], parent: "tt://home", state: ["step": 2],
                                                 presentation: .replace, fromOutside: true, since: since))
        let rewriting = try TestApp(Self.app(version: 3, migrate: """
            function(state)
              local p = state.pending
              assert(p.url == "tt://page/old" and p.query.note == "ring" and p.parent == "tt://home" and p.state.step == 2)
              assert(p.presentation == "replace" and p.link == true and p.since == "2030-03-17T17:46:40Z")
              p.url = "tt://page/new"
              p.state.step = 3
              return state
            end
            """))
        let migrated = try rewriting.host.migrated(old)
        #expect(migrated.pending == NavigationState.Pending(url: "tt://page/new", query: ["note": "ring"], parent: "tt://home", state: ["step": 3],
                                                            presentation: .replace, fromOutside: true, since: since))

        let dropping = try TestApp(Self.app(version: 3, migrate: "function(state) state.pending = nil return state end"))
        #expect(try dropping.host.migrated(old).pending == nil)

        let breaking = try TestApp(Self.app(version: 3, migrate: "function(state) state.pending.since = 'soon' return state end"))
        let error = try #require(throws: MigrationError.self) { try breaking.host.migrated(old) }
        #expect(error.reason == "the state it returned is not valid: pending.since: 'soon' is not a time such as 2026-01-01T00:00:00Z")
    }

    @Test func theVisibleURLIsTheEntryARestoreMakesFirst() {
        let stack: [NavigationState.Entry] = [.init(url: "tt://a"), .init(url: "tt://b")]
        #expect(NavigationState(root: .stack(stack)).visibleURL == "tt://b")
        #expect(NavigationState(root: .tabs([[.init(url: "tt://t1")], stack], selected: 1)).visibleURL == "tt://b")
        #expect(NavigationState(root: .stack(stack), modals: [[.init(url: "tt://m1")], []]).visibleURL == "tt://m1")
        #expect(NavigationState(root: .stack(stack), modals: [[.init(url: "tt://m1")]], popover: .init(url: "tt://p")).visibleURL == "tt://p")
        #expect(NavigationState(root: .stack([])).visibleURL == nil)
    }
}

import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// A store that counts its loads, around a file store.
private final class CountingStore: StateStore {
    let file: FileStateStore
    private(set) var loads = 0

    init(path: String) {
        file = FileStateStore(path: path)
    }

    func load() -> StateLoad {
        loads += 1
        return file.load()
    }

    func save(_ state: NavigationState) throws(StateStoreError) { try file.save(state) }
    func remove() throws(StateStoreError) { try file.remove() }
}

/// A launch restores its saved state once over: each saved URL follows the moved routes once and
/// is matched once (the visible one included), and the first save reads nothing the launch read.
@Suite("A restore does its work once")
struct RestoreOnceTests {
    /// Notes whose id is a param type that records each text it converts: every match of a note's
    /// URL, and every check of a moved route against the live ones, runs it once.
    static let app = """
        local wf = require "wayfinder"
        converted = {}
        wf.map:type("counted", function(text) converted[#converted + 1] = text; return text end)
        local Note = wf.controller "Note"
        function Note:init(route) self.id = route.id end
        wf.map:from("tt://note/(id:counted)", Note)
        wf.map:moved("tt://old/(id)", "tt://note/(id)")
        wf.app { name = "notes", persistence = "all" }
        """

    /// How many times each text was converted.
    static func conversions(_ app: TestApp) throws -> [String: Int] {
        let texts = try app.run("return converted").first?.arrayValue?.compactMap(\.stringValue) ?? []
        return texts.reduce(into: [:]) { counts, text in counts[text, default: 0] += 1 }
    }

    @Test func eachSavedURLFollowsTheMovesAndIsMatchedOnce() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notes.json"
        try FileStateStore(path: path).save(NavigationState(app: "notes", root: .stack([.init(url: "tt://note/a"), .init(url: "tt://note/b")])))
        let app = try TestApp(Self.app)
        app.host.stateStore = FileStateStore(path: path)
        try app.run("converted = {}")
        try app.host.launch()
        #expect(app.host.navigator.url == "tt://note/b")
        #expect(app.host.navigator.tree.visible?.controller != nil)
        // One check against the moves (is the URL a live route's?) and one match to restore it;
        // the visible screen is made from that match.
        #expect(try Self.conversions(app) == ["a": 2, "b": 2])
    }

    @Test func aMovedURLIsRewrittenOnceAndMatchedOnce() throws {
        // What one rewrite of the old URL costs, asked of the moves alone.
        let asked = try TestApp(Self.app)
        try asked.run("converted = {}")
        #expect(try asked.host.navigator.moves.rewrite("tt://old/c") == .moved("tt://note/c"))
        let rewrite = try Self.conversions(asked)["c"] ?? 0

        let directory = try TemporaryDirectory()
        let path = directory.path + "/notes.json"
        try FileStateStore(path: path).save(NavigationState(app: "notes", root: .stack([.init(url: "tt://old/c")])))
        let app = try TestApp(Self.app)
        app.host.stateStore = FileStateStore(path: path)
        try app.run("converted = {}")
        try app.host.launch()
        #expect(app.host.navigator.url == "tt://note/c")
        // The rewrite, then one match, which makes the visible screen too.
        #expect(try Self.conversions(app) == ["c": rewrite + 1])
    }

    @Test func theFirstSaveAfterALaunchThatFoundNothingReadsNothing() throws {
        let directory = try TemporaryDirectory()
        let store = CountingStore(path: directory.path + "/notes.json")
        let app = try TestApp(Self.app)
        app.host.stateStore = store
        try app.host.launch()
        try app.host.navigator.open("tt://note/x")
        try app.host.persist()
        try app.host.persist()
        #expect(store.loads == 1)
        guard case .loaded(let saved) = store.file.load() else { Issue.record("nothing was saved"); return }
        #expect(saved.app == "notes")
    }

    @Test func theFirstSaveAfterALaunchThatSetAGarbledFileAsideReadsNothing() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notes.json"
        // A state file whose first lines name it and its app, and whose body is not JSON.
        try Data(("{\"format\":\"\(NavigationState.format)\",\n\"app\":\"notes\",\n" + String(repeating: "\u{1}garbled", count: 10_000)).utf8)
            .write(to: URL(fileURLWithPath: path))
        let store = CountingStore(path: path)
        let app = try TestApp(Self.app)
        var warnings: [String] = []
        app.host.warn = { warnings.append($0) }
        app.host.stateStore = store
        try app.host.launch()
        #expect(warnings.contains { $0.contains("could not be read") }, "\(warnings)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(kept.contains { $0.hasPrefix("notes.json.corrupt-") }, "the garbled file is kept aside: \(kept)")
        try app.host.navigator.open("tt://note/y")
        try app.host.persist()
        #expect(store.loads == 1)
        guard case .loaded(let saved) = store.file.load() else { Issue.record("nothing was saved"); return }
        #expect(saved.app == "notes")
    }

    @Test func anotherAppsStateIsRefusedAtLaunchAndAtEverySave() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notes.json"
        let theirs = NavigationState(app: "mail", root: .stack([.init(url: "tt://inbox")]))
        try FileStateStore(path: path).save(theirs)
        let store = CountingStore(path: path)
        let app = try TestApp(Self.app)
        app.host.stateStore = store
        #expect(throws: PersistenceError.self) { try app.host.launch() }
        #expect(throws: PersistenceError.self) { try app.host.persist() }
        #expect(throws: PersistenceError.self) { try app.host.persist() }
        guard case .loaded(let kept) = FileStateStore(path: path).load() else { Issue.record("their state is gone"); return }
        #expect(kept.app == "mail")
        #expect(kept.root == theirs.root)
    }
}

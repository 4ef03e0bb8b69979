import Foundation
import OrderedCollections
import Testing
@testable import Wayfinder

/// Saves what each Swift screen says about itself: its URL's length as state, so every entry's
/// state differs and a mix-up shows.
private func record(_ entry: NavigationEntry<Screen>, _ screen: Screen) -> ControllerRecord {
    ControllerRecord(state: ["chars": .int(Int64(screen.url.count)), "tags": ["a", 2, 2.5, true]])
}

/// Saves `h`'s tree, writes it through a file store and reads it back.
private func saveAndLoad(_ h: NavigatorHarness, mode: PersistenceMode = .all, appContext: ContextChain? = nil,
                         record: (NavigationEntry<Screen>, Screen) -> ControllerRecord = record) throws -> (NavigationState, NavigationState) {
    let (state, leftOut) = h.navigator.tree.captured(mode: mode, app: "test", appContext: appContext, record: record)
    #expect(leftOut.isEmpty, "\(leftOut)")
    let directory = try temporaryDirectory()
    let store = FileStateStore(path: directory + "/state.json")
    try store.save(state)
    guard case .loaded(let loaded) = store.load() else {
        Issue.record("the saved state did not load")
        return (state, state)
    }
    return (state, loaded)
}

func temporaryDirectory() throws -> String {
    let path = NSTemporaryDirectory() + "wayfinder-tests-" + UUID().uuidString
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The snapshot's URLs with every `loaded` flag taken out, to compare shapes.
private func shape(_ value: Value) -> Value {
    switch value {
    case .map(let map):
        var kept = OrderedDictionary<String, Value>()
        for (key, inner) in map where key != "loaded" { kept[key] = shape(inner) }
        return .map(kept)
    case .array(let elements): return .array(elements.map(shape))
    default: return value
    }
}

@Suite("Persistence")
struct PersistenceTests {
    /// Opens the same sequence of URLs into each shape the tree can take.
    static let shapes: [(String, @Sendable (NavigatorHarness) throws -> Void)] = [
        ("one deep stack", { h in
            for url in ["tt://menu/1", "tt://food/a", "tt://food/b", "tt://food/c", "tt://food/d"] { try h.navigator.open(url) }
        }),
        ("tabs with stacks, the third selected", { h in
            try h.navigator.setTabs(["tt://menu/1", "tt://menu/2", "tt://menu/3"])
            try h.navigator.open("tt://food/a")
            try h.navigator.select(2)
            try h.navigator.open("tt://food/b")
            try h.navigator.open(NavigationRequest(url: "tt://food/c", query: ["note": "extra", "count": 3, "nested": ["x": [1, 2]]]))
        }),
        ("modals over tabs, and a popover", { h in
            try h.navigator.setTabs(["tt://menu/1", "tt://menu/2"])
            try h.navigator.open("tt://order?waitress=Ann")
            try h.navigator.open("tt://food/a")
            try h.navigator.open("tt://order?waitress=Bo")
            try h.navigator.open("tt://confirm")
        }),
        ("an empty tree", { _ in }),
    ]

    @Test(arguments: 0..<4)
    func everyTreeShapeRoundTrips(_ index: Int) throws {
        let (name, build) = Self.shapes[index]
        let original = try NavigatorHarness(restaurantRoutes)
        try build(original)
        let (saved, loaded) = try saveAndLoad(original)
        #expect(loaded == saved, "\(name): the document reads back as written")

        let restored = try NavigatorHarness(restaurantRoutes)
        let didRestore = try restored.navigator.restore(loaded)
        #expect(didRestore == (original.visible != nil), "\(name)")
        #expect(shape(restored.snapshot) == shape(original.snapshot), "\(name): same tabs, stacks, modals and popover")
        #expect(restored.made.count == (original.visible == nil ? 0 : 1), "\(name): only the visible controller is made")
        // Saving the restored tree, nothing made, gives the same document.
        let (again, _) = restored.navigator.tree.captured(mode: .all, app: "test", savedAt: saved.savedAt, record: record)
        #expect(again == saved, "\(name): restoring and saving again changes nothing")
    }

    @Test func restoredEntriesAreMadeWhenTheyBecomeVisibleWithTheirQueryAndState() throws {
        let original = try NavigatorHarness(restaurantRoutes)
        try original.navigator.setTabs(["tt://menu/1", "tt://menu/2", "tt://menu/3"])
        try original.navigator.open("tt://food/a")
        try original.navigator.open(NavigationRequest(url: "tt://food/b", query: ["side": "fries"]))
        try original.navigator.select(1)
        try original.navigator.open("tt://food/c")
        try original.navigator.open("tt://order?waitress=Ann")
        let (_, loaded) = try saveAndLoad(original)

        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.restore(loaded)
        #expect(h.made == ["tt://order?waitress=Ann"])
        #expect(h.events == ["appear tt://order?waitress=Ann"])
        #expect(h.navigator.top?.state == ["chars": 23, "tags": ["a", 2, 2.5, true]], "state is handed to the constructor")

        try h.navigator.dismiss()
        #expect(h.made.last == "tt://food/c" && h.made.count == 2)
        try h.navigator.back()
        #expect(h.made.last == "tt://menu/2" && h.made.count == 3)
        try h.navigator.select(0)
        #expect(h.made.last == "tt://food/b" && h.made.count == 4)
        #expect(h.navigator.top?.query == ["side": "fries"], "the action's query comes back")
        #expect(h.events.suffix(2) == ["disappear tt://menu/2", "appear tt://food/b"])
        // Entries not yet visible stay unmade.
        #expect(h.navigator.tree.allEntries.filter(\.isLoaded).map(\.url).sorted() == ["tt://food/b", "tt://menu/2"].sorted())
    }

    @Test func entriesWhoseURLNoLongerOpensAreDroppedAndTheRestKeepsItsOrder() throws {
        let state = NavigationState(root: .tabs([
            [.init(url: "tt://menu/1"), .init(url: "tt://gone/1"), .init(url: "tt://food/a"), .init(url: "tt://gone/2"), .init(url: "tt://food/b")],
            [.init(url: "tt://gone/3")],
            [.init(url: "tt://menu/3"), .init(url: "tt://send")],
        ], selected: 1), modals: [[.init(url: "tt://gone/4")], [.init(url: "tt://order?waitress=Ann"), .init(url: "not a url")]])
        var routes = restaurantRoutes
        routes.removeAll { $0.0 == "*" }
        let h = try NavigatorHarness(routes)
        var warnings = [String]()
        h.navigator.warn = { warnings.append($0) }
        #expect(try h.navigator.restore(state))
        let expected: Value = [
            "root": ["kind": "tabs", "selected": 1, "tabs": [
                ["kind": "stack", "entries": [["url": "tt://menu/1"], ["url": "tt://food/a"], ["url": "tt://food/b"]]],
                ["kind": "stack", "entries": [["url": "tt://menu/3"]]],
            ]],
            "modals": [["kind": "stack", "entries": [["url": "tt://order?waitress=Ann"]]]],
            "visible": "tt://order?waitress=Ann",
        ]
        #expect(shape(h.snapshot) == expected)
        let named = ["tt://gone/1", "tt://gone/2", "tt://gone/3", "tt://gone/4", "tt://send", "not a url"]
        #expect(warnings.count == named.count)
        for url in named { #expect(warnings.contains { $0.contains("'\(url)'") }, "\(url) is named in \(warnings)") }
        #expect(warnings.contains { $0.contains("now an action") })
    }

    @Test func aStateWithNothingLeftToRestoreLeavesTheTreeAlone() throws {
        let h = try NavigatorHarness(restaurantRoutes.filter { $0.0 != "*" })
        try h.navigator.open("tt://menu/1")
        let state = NavigationState(root: .stack([.init(url: "tt://gone/1")]))
        h.navigator.warn = { _ in }
        #expect(try h.navigator.restore(state) == false)
        #expect(h.visible == "tt://menu/1")
    }

    @Test func topModeKeepsTheContainersAndTheFirstEntryOfEachStack() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        try PersistenceTests.shapes[2].1(h)
        try h.navigator.dismiss() // the popover
        try h.navigator.select(1)
        try h.navigator.open("tt://food/z") // into the top modal
        let (state, _) = h.navigator.tree.captured(mode: .top, record: record)
        #expect(state.mode == .top)
        guard case .tabs(let tabs, let selected) = state.root else { Issue.record("tabs expected"); return }
        #expect(tabs.map { $0.map(\.url) } == [["tt://menu/1"], ["tt://menu/2"]])
        #expect(selected == 1)
        #expect(state.modals.map { $0.map(\.url) } == [["tt://order?waitress=Ann"], ["tt://order?waitress=Bo"]])

        try h.navigator.open("tt://confirm")
        #expect(h.navigator.tree.captured(mode: .top, record: record).state.popover == nil)
        #expect(h.navigator.tree.captured(mode: .all, record: record).state.popover?.url == "tt://confirm")
        let none = h.navigator.tree.captured(mode: .none, record: record).state
        #expect(none.entries.isEmpty && none.contexts.isEmpty)
    }

    @Test func aControllerThatDeclinesIsLeftOutAndItsStackKeepsOrder() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        for url in ["tt://menu/1", "tt://food/secret", "tt://food/b"] { try h.navigator.open(url) }
        let (state, _) = h.navigator.tree.captured(mode: .all) { entry, _ in
            ControllerRecord(persists: entry.url != "tt://food/secret")
        }
        #expect(state.entries.map(\.url) == ["tt://menu/1", "tt://food/b"])
    }

    @Test func expiredStateIsRestorableOnlyWithAnImportantEntry() throws {
        let saved = Date(timeIntervalSince1970: 1_000_000)
        var state = NavigationState(savedAt: saved, root: .stack([.init(url: "tt://menu/1"), .init(url: "tt://food/a")]))
        #expect(!state.isExpired(expiration: 60, now: saved.addingTimeInterval(60)))
        #expect(state.isExpired(expiration: 60, now: saved.addingTimeInterval(61)))
        #expect(!state.isExpired(expiration: 0, now: saved.addingTimeInterval(1e9)), "0 never expires")
        #expect(!state.isRestorable(expiration: 60, now: saved.addingTimeInterval(61)))
        #expect(state.isRestorable(expiration: 60, now: saved.addingTimeInterval(59)))
        state.root = .stack([.init(url: "tt://menu/1"), .init(url: "tt://food/a", important: true)])
        #expect(state.isRestorable(expiration: 60, now: saved.addingTimeInterval(1e6)))

        // Importance is saved and read back.
        let h = try NavigatorHarness(restaurantRoutes)
        try h.navigator.open("tt://menu/1")
        try h.navigator.open("tt://order?waitress=Ann")
        let (_, loaded) = try saveAndLoad(h) { entry, _ in ControllerRecord(important: entry.url.hasPrefix("tt://order")) }
        #expect(loaded.modals.first?.first?.important == true)
        #expect(loaded.hasImportantEntry)
    }

    @Test func contextsComeBackChainedWithTheirPlainValues() throws {
        let app = ContextChain(name: "app")
        try app.set("waitress", "Betty")
        let flow = ContextChain(name: "flow", inner: app, fields: ["age": .int])
        try flow.set("age", 3)
        try flow.set("userId", .null) // a stored nil hides inner values: it persists
        try flow.set("callback", .handle(Value.Handle(id: 1, kind: "function")))
        try flow.set("cart", ["items": ["pie", "pizza"], "total": 12.5])
        let screen = ContextChain(inner: flow)
        try screen.set("color", "Blue")

        let h = try NavigatorHarness(restaurantRoutes)
        // The last entry, made at restore, has no context: the others stay pending to be looked at.
        for url in ["tt://menu/1", "tt://food/a", "tt://food/b", "tt://food/c"] { try h.navigator.open(url) }
        let contexts: [String: ContextChain] = ["tt://menu/1": app, "tt://food/a": flow, "tt://food/b": screen]
        let (state, leftOut) = h.navigator.tree.captured(mode: .all, appContext: app) { entry, _ in
            ControllerRecord(context: contexts[entry.url])
        }
        #expect(leftOut == ["context 'flow': callback (a function)"])
        #expect(state.contexts.count == 3, "each layer once, however many entries reach it")
        #expect(state.contexts[0].isApp && state.contexts[1].inner == 0 && state.contexts[2].inner == 1)

        let restoredApp = ContextChain(name: "app")
        let h2 = try NavigatorHarness(restaurantRoutes)
        try h2.navigator.restore(state, appContext: restoredApp)
        #expect(try restoredApp.get("waitress") == "Betty", "the app layer's values go into the host's own")
        let entries = h2.navigator.tree.allEntries
        let restoredScreen = try #require(entries[2].pending?.context)
        #expect(try restoredScreen.get("color") == "Blue")
        #expect(try restoredScreen.get("age") == 3)
        #expect(try restoredScreen.get("cart") == ["items": ["pie", "pizza"], "total": 12.5])
        #expect(try restoredScreen.get("waitress") == "Betty")
        let userId = try restoredScreen.get("userId")
        #expect(restoredScreen.keys.contains("userId") && userId == nil, "the stored nil came back")
        #expect(restoredScreen.inner === entries[1].pending?.context, "entries sharing a layer share it again")
        #expect(restoredScreen.inner?.inner === restoredApp)
        #expect(restoredScreen.inner?.fields == ["age": .int], "typed fields come back")
        #expect(throws: ContextError.self) { try restoredScreen.inner?.set("age", "three") }
    }

    @Test func valuesThatCannotBeWrittenAreLeftOutAndNamed() throws {
        let h = try NavigatorHarness(restaurantRoutes)
        let function = Value.handle(Value.Handle(id: 7, kind: "function"))
        try h.navigator.open(NavigationRequest(url: "tt://food/a", query: ["onDone": function, "kept": 1]))
        let (state, leftOut) = h.navigator.tree.captured(mode: .all) { _, _ in
            ControllerRecord(state: ["ratio": .double(.infinity), "list": [1, function, 3], "ok": "yes"],
                             model: .init(selected: function, anchor: "row-1"))
        }
        #expect(leftOut.sorted() == [
            "tt://food/a: query.onDone (a function)", "tt://food/a: selected item (a function)",
            "tt://food/a: state.list[2] (a function)", "tt://food/a: state.ratio (inf, not a finite number)",
        ])
        let entry = try #require(state.entries.first)
        #expect(entry.query == ["kept": 1])
        #expect(entry.state == ["list": [1, .null, 3], "ok": "yes"])
        #expect(entry.model == .init(selected: nil, anchor: "row-1"))
    }

    @Test func aDocumentOfAnotherFormatOrVersionIsRefused() throws {
        guard case .map(var members) = NavigationState(root: .stack([.init(url: "tt://menu/1")])).document else {
            Issue.record("the document is not an object")
            return
        }
        members["version"] = 2
        #expect(throws: NavigationStateError.unknownVersion(2)) { try NavigationState(document: .map(members)) }
        members["format"] = "something.else"
        #expect(throws: NavigationStateError.notAState("something.else")) { try NavigationState(document: .map(members)) }
        #expect(throws: NavigationStateError.notAState(nil)) { try NavigationState(document: [1, 2]) }
    }

    /// Every kind of value the tree holds comes back from its document as it was: integers and
    /// floats stay apart, keys keep their order.
    @Test func aDocumentReadsBackAsTheSameState() throws {
        let state = NavigationState(
            app: "sample", savedAt: Date(timeIntervalSince1970: 1_767_225_600), mode: .top,
            root: .tabs([[.init(url: "tt://a", query: ["z": 1, "a": .double(2)], state: ["ratio": .double(2), "n": 2], context: 1,
                                important: true, model: .init(selected: "x", anchor: 3), title: "A")], [.init(url: "tt://b")]], selected: 1),
            modals: [[.init(url: "tt://m")]], popover: .init(url: "tt://p"),
            contexts: [.init(name: "app", values: ["k": "v"], isApp: true), .init(fields: ["n": .number], values: ["n": .double(1.5)], inner: 0)])
        let read = try NavigationState(document: try JSON.decode(try JSON.encode(state.document)))
        #expect(read == state)
        #expect(read.entries.first?.state?["ratio"] == .double(2), "2.0 stays a float")
        #expect(read.entries.first?.query.map { Array($0.keys) } == ["z", "a"], "keys keep their order")
    }

    @Test func partsThatDoNotFitAreRefused() {
        let cases: [(NavigationState, String)] = [
            (NavigationState(root: .tabs([[.init(url: "tt://a")]], selected: 1)), "selected tab 2 of 1"),
            (NavigationState(contexts: [.init(inner: 0)]), "context 0 chains to context 0, which does not come before it"),
            (NavigationState(contexts: [.init(), .init(inner: 5)]), "context 1 chains to context 5, which does not come before it"),
            (NavigationState(contexts: [.init(isApp: true), .init(isApp: true)]), "more than one app context"),
            (NavigationState(root: .stack([.init(url: "tt://a", context: 0)])), "entry 'tt://a' has context 0 of 0"),
        ]
        for (state, reason) in cases {
            #expect(throws: NavigationStateError.invalid(reason)) { try state.validate() }
        }
    }
}

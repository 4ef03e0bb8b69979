import Foundation
import Testing
import TestSupport
@testable import Wayfinder

/// A state with some of everything, as a file store writes it.
private func sampleState() -> NavigationState {
    NavigationState(
        app: "sample", savedAt: Date(timeIntervalSince1970: 1_800_000_000), mode: .all,
        root: .tabs([[.init(url: "tt://menu/1", state: ["scroll": 3]), .init(url: "tt://food/a", context: 1)],
                     [.init(url: "tt://menu/2", query: ["ref": "toolbar"], important: true)]], selected: 1),
        modals: [[.init(url: "tt://order?waitress=Ann", state: ["items": ["pie"]])]],
        popover: .init(url: "tt://confirm", model: .init(selected: "p3", anchor: 1)),
        contexts: [.init(name: "app", values: ["waitress": "Betty"], isApp: true),
                   .init(name: "flow", fields: ["age": .int], values: ["age": 4, "hidden": .null], inner: 0)])
}

private func contents(of path: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: path)))
}

private func write(_ bytes: [UInt8], to path: String) throws {
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}

private func files(in directory: String) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
}

@Suite("File state store")
struct StateStoreTests {
    @Test func aSelectedTabOfIntMinIsRefusedNotATrap() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        let text = #"{"format":"wayfinder.navigation","version":1,"saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"tabs","selected":-9223372036854775808,"tabs":[[{"url":"tt://menu/1"}]]},"modals":[]}"#
        try write(Array(text.utf8), to: store.path)
        guard case .unreadable(let reason, let kept?) = store.load() else {
            Issue.record("not refused")
            return
        }
        #expect(reason.contains("selected tab -9223372036854775808 is not a tab number"), "\(reason)")
        try FileManager.default.removeItem(atPath: kept)
    }

    @Test func aSaveTimeWithAFractionIsReadToTheSecond() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        try write(Array(#"{"format":"wayfinder.navigation","version":1,"saved_at":"2026-01-01T00:00:00.5Z","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://menu/1"}]},"modals":[]}"#.utf8), to: store.path)
        guard case .loaded(let state) = store.load() else {
            Issue.record("not loaded")
            return
        }
        #expect(state.savedAt == Date(timeIntervalSince1970: 1_767_225_600))
        try store.save(state)
        #expect(store.load() == .loaded(state))
    }

    @Test func aMissingFileIsAFreshStart() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/none.json")
        #expect(store.load() == .missing)
    }

    @Test func savesAtomicallyAndReadsBack() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/nested/dirs/app.json")
        try store.save(sampleState())
        #expect(store.load() == .loaded(sampleState()))
        #expect(try files(in: directory + "/nested/dirs") == ["app.json"], "no temporary file is left behind")

        var changed = sampleState()
        changed.root = .stack([.init(url: "tt://menu/9")])
        try store.save(changed)
        #expect(store.load() == .loaded(changed), "a second save replaces the first")
        let text = String(decoding: try contents(of: store.path), as: UTF8.self)
        #expect(text.hasPrefix("{\"format\":\"wayfinder.navigation\",\n\"version\":1,\n\"app\":\"sample\",\n\"app_version\":1,\n"), "the format first, one member a line")
        #expect(text.contains(#""values":{"age":4,"hidden":null}"#), "keys as the tree keeps them")
    }

    /// A save knows the file it replaces is a state by its first line alone, so that line must be
    /// the one every save writes; a file that begins so is replaced however its rest reads, and a
    /// file that does not is judged by all of it.
    @Test func aSaveKnowsItsOwnFileByTheFirstLine() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try store.save(sampleState())
        #expect(try contents(of: store.path).starts(with: FileStateStore.firstLine))

        try write(Array(FileStateStore.firstLine) + Array("\"root\":[[[[".utf8), to: store.path)
        try store.save(sampleState())
        #expect(store.load() == .loaded(sampleState()), "a state cut short is replaced")

        let foreign = Array(#"{"format":"something.else","root":1}"#.utf8)
        try write(foreign, to: store.path)
        #expect(throws: StateStoreError.self) { try store.save(sampleState()) }
        #expect(try contents(of: store.path) == foreign, "another program's file is left as it is")
    }

    /// Files written by earlier versions (keys sorted, `2.0` written as `2`) still load, and the
    /// next save writes the format first.
    @Test func aStateFileWithSortedKeysFromAnEarlierVersionStillLoads() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        try FileManager.default.copyItem(atPath: Fixtures.directory.appendingPathComponent("state-sorted-keys.json").path, toPath: store.path)
        #expect(store.load() == .loaded(sampleState()))
        try store.save(sampleState())
        #expect(String(decoding: try contents(of: store.path), as: UTF8.self).hasPrefix("{\"format\":\"wayfinder.navigation\",\n"))
        #expect(store.load() == .loaded(sampleState()))
    }

    /// Integers and floats keep their kind through a save: `2.0` is written `2.0` and read back
    /// a float, `2` an integer.
    @Test func numbersKeepTheirKindThroughASave() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        let state = NavigationState(savedAt: Date(timeIntervalSince1970: 1_800_000_000),
                                    root: .stack([.init(url: "tt://a", state: ["float": .double(2), "int": 2, "big": .double(1e300)])]))
        try store.save(state)
        guard case .loaded(let read) = store.load() else {
            Issue.record("not loaded")
            return
        }
        #expect(read.entries.first?.state == ["float": .double(2), "int": 2, "big": .double(1e300)])
        #expect(String(decoding: try contents(of: store.path), as: UTF8.self).contains(#""float":2.0"#))
    }

    @Test func removeForgetsTheStateAndIsQuietWhenThereIsNone() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        try store.remove()
        try store.save(sampleState())
        try store.remove()
        #expect(store.load() == .missing)
    }

    @Test func aDirectoryNamedLikeATemporaryFileNeitherStopsTheSaveNorIsRemoved() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try store.save(sampleState())
        try FileManager.default.createDirectory(atPath: directory + "/.app.json.tmp-\(getpid())", withIntermediateDirectories: false)
        var changed = sampleState()
        changed.app = "changed"
        try store.save(changed)
        #expect(store.load() == .loaded(changed))
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory + "/.app.json.tmp-\(getpid())", isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [".app.json.tmp-\(getpid())", "app.json"])

        let blocked = FileStateStore(path: directory + "/app.json/inside.json")
        let error = try #require(throws: StateStoreError.self) { try blocked.save(sampleState()) }
        #expect(error.description.hasPrefix("cannot write the navigation state to \(blocked.path): cannot create"))
    }

    /// Every prefix of a valid file is refused. A prefix that holds the format marker is
    /// recognizably Wayfinder's: moved aside intact, and the next load is fresh. One cut before the
    /// marker could be anyone's file: it is left untouched, and saving over it is refused too.
    @Test func everyTruncationPointIsRefusedAndOnlyOursMovedAside() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try store.save(sampleState())
        let whole = try contents(of: store.path)
        #expect(whole.count > 400)
        let marker = Array(#""wayfinder.navigation""#.utf8)
        let firstLine = try #require(whole.firstIndex(of: UInt8(ascii: "\n")))
        var movedAside = 0, leftAlone = 0
        for length in 0..<whole.count {
            let prefix = Array(whole[..<length])
            try write(prefix, to: store.path)
            let holdsMarker = Data(prefix).range(of: Data(marker)) != nil
            switch store.load() {
            case .unreadable(let reason, let kept?):
                #expect(holdsMarker, "a cut at byte \(length) without the marker was moved aside")
                #expect(!reason.isEmpty)
                #expect(kept.hasPrefix(store.path + ".corrupt-"))
                #expect(try contents(of: kept) == prefix, "the refused file is kept as it was")
                #expect(store.load() == .missing, "the next launch starts fresh")
                try FileManager.default.removeItem(atPath: kept)
                movedAside += 1
            case .unreadable(let reason, nil):
                #expect(!holdsMarker, "a cut at byte \(length) with the marker was not moved aside")
                #expect(length < firstLine, "a cut at byte \(length), after the first line, was refused as another program's file")
                #expect(reason == store.path + " is not a Wayfinder state file; it was left as it is")
                #expect(try contents(of: store.path) == prefix)
                #expect(store.problem == store.path + ": it is not a Wayfinder state file; it was left as it is")
                #expect(throws: StateStoreError.self) { try store.save(sampleState()) }
                #expect(throws: StateStoreError.self) { try store.remove() }
                #expect(try contents(of: store.path) == prefix, "saving and removing leave it too")
                leftAlone += 1
            default:
                Issue.record("a file cut at byte \(length) was not refused")
            }
        }
        #expect(movedAside > 0 && leftAlone > 0)
    }

    /// A file that is not a state (an app's source named as the state path) is never moved,
    /// replaced or removed.
    @Test func aFileThatIsNotAStateIsLeftAsItIs() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.lua")
        let source = Array("local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\n".utf8)
        for text in [source, Array(#"{"format":"other","version":1}"#.utf8), Array("[1,2,3]".utf8), [],
                     Array(#"{"note":"wayfinder.navigation"}"#.utf8)] {
            try write(text, to: store.path)
            #expect(store.load() == .unreadable(reason: store.path + " is not a Wayfinder state file; it was left as it is", keptAt: nil))
            #expect(store.problem == store.path + ": it is not a Wayfinder state file; it was left as it is")
            #expect(throws: StateStoreError(path: store.path, reason: "it is not a Wayfinder state file; it was left as it is")) {
                try store.save(sampleState())
            }
            #expect(throws: StateStoreError.self) { try store.remove() }
            #expect(try contents(of: store.path) == text)
            #expect(try files(in: directory) == ["app.lua"])
        }
    }

    @Test func randomBytesAreRefused() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        var generator = SeededGenerator(seed: 20261121)
        for round in 0..<200 {
            let length = Int.random(in: 1...600, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            // Some rounds look like JSON at first.
            if round % 3 == 0 { bytes = Array(#"{"format":"wayfinder.navigation","version":1,"#.utf8) + bytes }
            try write(bytes, to: store.path)
            let load = store.load()
            if round % 3 != 0 {
                // Bytes without the marker are not recognizably a state: refused, left as they are.
                #expect(load == .unreadable(reason: store.path + " is not a Wayfinder state file; it was left as it is", keptAt: nil))
                #expect(try contents(of: store.path) == bytes)
                try FileManager.default.removeItem(atPath: store.path)
                continue
            }
            guard case .unreadable(_, let kept?) = load else {
                Issue.record("random bytes (round \(round)) were not refused")
                continue
            }
            try FileManager.default.removeItem(atPath: kept)
        }
        #expect(try files(in: directory).isEmpty)
    }

    @Test func otherVersionsFormatsAndInconsistentDocumentsAreRefusedWithTheirReason() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        let cases: [(String, String)] = [
            (#"{"format":"wayfinder.navigation","version":2}"#, "unknown state version 2 (this Wayfinder reads version 1)"),
            (#"{"format":"wayfinder.navigation","version":1,"saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"tabs","selected":3,"tabs":[[]]},"modals":[]}"#,
             "inconsistent state: selected tab 3 of 1"),
            (#"{"format":"wayfinder.navigation","version":1,"saved_at":"2026-01-01T00:00:00Z","mode":"most","root":{"kind":"stack","entries":[]},"modals":[]}"#,
             "mode"),
            (#"{"format":"wayfinder.navigation","version":1,"saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"stack","entries":[{"url":5}]},"modals":[]}"#,
             "root.entries[1].url"),
        ]
        for (text, reason) in cases {
            try write(Array(text.utf8), to: store.path)
            guard case .unreadable(let given, let kept?) = store.load() else {
                Issue.record("\(text) was not refused")
                continue
            }
            #expect(given.contains(reason), "\(given)")
            try FileManager.default.removeItem(atPath: kept)
        }
    }

    @Test func aFileMovedAsideTwiceInOneSecondKeepsBoth() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        var kept = Set<String>()
        for _ in 0..<3 {
            try write(Array(#"nope "wayfinder.navigation""#.utf8), to: store.path)
            if case .unreadable(_, let path?) = store.load() { kept.insert(path) }
        }
        #expect(kept.count == 3)
    }

    @Test func theDefaultPathFollowsXDG() {
        #expect(FileStateStore.defaultPath(app: "restaurant", environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"]) == "/s/wayfinder/restaurant.json")
        #expect(FileStateStore.defaultPath(app: "restaurant", environment: ["HOME": "/h"]) == "/h/.local/state/wayfinder/restaurant.json")
        #expect(FileStateStore.defaultPath(app: "r", environment: ["XDG_STATE_HOME": "relative", "HOME": "/h"]) == "/h/.local/state/wayfinder/r.json",
                "a relative XDG_STATE_HOME is ignored, as the spec says")
        #expect(FileStateStore.defaultPath(app: "../my app/é", environment: ["XDG_STATE_HOME": "/s"]) == "/s/wayfinder/app.._my_app__.json")
    }
}

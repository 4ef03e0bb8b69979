import Foundation
import Testing
@testable import Wayfinder

private func state(_ urls: [String], appVersion: Int = 1) -> NavigationState {
    NavigationState(app: "marks", appVersion: appVersion, savedAt: Date(timeIntervalSince1970: 1_800_000_000),
                    root: .stack(urls.map { .init(url: $0) }))
}

private func text(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

/// The file store's side of the guard against a state that stops every launch: the mark beside
/// the state, which only a mark of Wayfinder's is ever taken for, and a state kept aside.
@Suite("Launch marks and states set aside")
struct LaunchMarkTests {
    @Test func aMarkIsWrittenFormatFirstReadBackAndRemoved() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        #expect(try store.launchMark() == nil)
        try store.writeLaunchMark(LaunchMark(launches: 1, url: "tt://menu/1"))
        #expect(try text(store.launchMarkPath) == #"{"format":"wayfinder.launch","launches":1,"url":"tt://menu/1"}"#)
        try store.writeLaunchMark(LaunchMark(launches: 2, url: "tt://menu/1", error: "app.lua:3: boom"))
        #expect(try store.launchMark() == LaunchMark(launches: 2, url: "tt://menu/1", error: "app.lua:3: boom"))
        try store.removeLaunchMark()
        #expect(!FileManager.default.fileExists(atPath: store.launchMarkPath))
        try store.removeLaunchMark()
    }

    @Test(arguments: ["my notes", "", #"{"format":"someone.else","launches":1}"#, #"{"launches":1}"#, "[1,2]"])
    func aFileAtTheMarksPathThatIsNotAMarkIsLeftAsItIs(_ contents: String) throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        try contents.write(toFile: store.launchMarkPath, atomically: true, encoding: .utf8)
        let refusal = StateStoreError(path: store.launchMarkPath, reason: "it is not a Wayfinder launch mark; it was left as it is")
        #expect(throws: refusal) { try store.launchMark() }
        #expect(throws: refusal) { try store.writeLaunchMark(LaunchMark(launches: 1, url: nil)) }
        #expect(throws: refusal) { try store.removeLaunchMark() }
        #expect(try text(store.launchMarkPath) == contents)
    }

    @Test func aDirectoryOrALinkAtTheMarksPathIsLeftAsItIs() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try FileManager.default.createDirectory(atPath: store.launchMarkPath, withIntermediateDirectories: false)
        #expect(throws: StateStoreError(path: store.launchMarkPath, reason: "it is not a regular file; it was left as it is")) { try store.launchMark() }
        try FileManager.default.removeItem(atPath: store.launchMarkPath)

        try #"{"format":"wayfinder.launch","launches":1}"#.write(toFile: directory + "/elsewhere", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: store.launchMarkPath, withDestinationPath: directory + "/elsewhere")
        #expect(throws: StateStoreError(path: store.launchMarkPath, reason: "it is a symbolic link; it was left as it is")) {
            try store.writeLaunchMark(LaunchMark(launches: 2, url: nil))
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.launchMarkPath) == directory + "/elsewhere")
        #expect(try text(directory + "/elsewhere") == #"{"format":"wayfinder.launch","launches":1}"#)
    }

    @Test func aDamagedMarkOfWayfindersCountsOneLaunch() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        try #"{"format":"wayfinder.launch","laun"#.write(toFile: store.launchMarkPath, atomically: true, encoding: .utf8)
        #expect(try store.launchMark() == LaunchMark(launches: 1, url: nil))
        try store.writeLaunchMark(LaunchMark(launches: 2, url: nil))
        #expect(try store.launchMark()?.launches == 2)
    }

    @Test func aMarkOfAnotherShapeIsNotAMark() {
        #expect(LaunchMark(document: ["format": "wayfinder.launch", "launches": -1]) == nil)
        #expect(LaunchMark(document: ["format": "wayfinder.launch", "launches": 1.5]) == nil)
        #expect(LaunchMark(document: ["format": "wayfinder.launch", "launches": 1, "url": 3]) == nil)
        #expect(LaunchMark(document: ["format": "wayfinder.launch", "launches": 1, "error": ["x"]]) == nil)
        #expect(LaunchMark(document: ["format": "wayfinder.launch", "launches": 0, "url": .null])?.launches == 0)
    }

    @Test func temporaryFilesOfAKilledMarkWriteGoAtTheNextRead() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        // A process id that cannot be running: the largest pid_t is far above the kernel's limit.
        let leftover = directory + "/.app.json.launching.tmp-2147483646"
        try "{".write(toFile: leftover, atomically: true, encoding: .utf8)
        #expect(try store.launchMark() == nil)
        #expect(!FileManager.default.fileExists(atPath: leftover))
    }

    @Test func aStateSetAsideIsMovedBesideItselfAndNotLoadedAgain() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try store.save(state(["tt://menu/1"]))
        let saved = try text(store.path)
        let aside = try store.setAside(.crashed)
        #expect(aside.hasPrefix(directory + "/app.json.crashed-"))
        #expect(try text(aside) == saved)
        #expect(store.load() == .missing)
        try store.save(state(["tt://menu/2"]))
        let second = try store.setAside(.crashed)
        #expect(second != aside, "a second one in the same second gets its own name")
        #expect(throws: StateStoreError(path: store.path, reason: "there is no state to set aside")) { _ = try store.setAside(.newer) }
    }

    @Test func aStateBehindALinkIsCopiedAsideAndTheLinkStillLeadsToIt() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        let target = directory + "/real/app.json"
        try FileStateStore(path: target).save(state(["tt://menu/1"]))
        try FileManager.default.createSymbolicLink(atPath: directory + "/app.json", withDestinationPath: target)
        let store = FileStateStore(path: directory + "/app.json")
        let aside = try store.setAside(.unmigrated)
        #expect(aside.hasPrefix(target + ".unmigrated-"))
        #expect(try text(aside) == (try text(target)))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: store.path) == target)
        try store.save(state(["tt://menu/9"]))
        guard case .loaded(let fresh) = store.load() else { throw StoreTestFailure() }
        #expect(fresh.entries.map(\.url) == ["tt://menu/9"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/real").count == 2)
    }

    @Test func theAppVersionIsWrittenAndADocumentWithoutOneIsVersionOne() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        try store.save(state(["tt://menu/1"], appVersion: 7))
        #expect(try text(store.path).contains(#""app_version":7"#))
        #expect(store.load() == .loaded(state(["tt://menu/1"], appVersion: 7)))
        try #"{"format":"wayfinder.navigation","version":1,"app":"marks","saved_at":"2027-01-15T08:00:00Z","mode":"all","root":{"kind":"stack","entries":[]},"modals":[]}"#
            .write(toFile: store.path, atomically: true, encoding: .utf8)
        guard case .loaded(let old) = store.load() else { throw StoreTestFailure() }
        #expect(old.appVersion == 1)
        try #"{"format":"wayfinder.navigation","version":1,"app":"marks","app_version":0,"saved_at":"2027-01-15T08:00:00Z","mode":"all","root":{"kind":"stack","entries":[]},"modals":[]}"#
            .write(toFile: store.path, atomically: true, encoding: .utf8)
        guard case .unreadable(let reason, let kept?) = store.load() else { throw StoreTestFailure() }
        #expect(reason.contains("app version 0 is not a version"), "\(reason)")
        #expect(kept.contains(".corrupt-"))
    }
}

private struct StoreTestFailure: Error {}

import Foundation
import Testing
@testable import Wayfinder

private func text(_ path: String) throws -> String {
    try String(contentsOfFile: path, encoding: .utf8)
}

private func sampleState() -> NavigationState {
    NavigationState(app: "owner", appVersion: 1, savedAt: Date(timeIntervalSince1970: 1_800_000_000),
                    root: .stack([.init(url: "tt://menu/1"), .init(url: "tt://menu/2")]))
}

/// The kind of what is at `path`, without following a link; nil when nothing is.
private func kind(_ path: String) -> mode_t? {
    var info = stat()
    return lstat(path, &info) == 0 ? info.st_mode & S_IFMT : nil
}

/// One owner of a state file at a time, and files beside it that are never opened when something
/// else has taken their name.
@Suite("State file ownership and temporary files")
struct StateOwnerTests {
    /// Holds the lock at `path` as another process would: its own open file, locked, naming `pid`.
    private func holdLock(at path: String, pid: Int) throws -> Int32 {
        try #"{"format":"wayfinder.lock","pid":\#(pid)}"#.write(toFile: path, atomically: true, encoding: .utf8)
        let file = open(path, O_RDWR | O_CLOEXEC)
        #expect(file >= 0)
        #expect(flock(file, LOCK_EX | LOCK_NB) == 0)
        return file
    }

    @Test func aStateAnotherOwnerHoldsIsRefusedNamingTheFileAndTheHoldersProcess() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json", claimWait: 0)
        let held = try holdLock(at: store.lockPath, pid: 4242)
        let error = try #require(throws: StateStoreError.self) { _ = try store.claim() }
        #expect(error.path == store.path)
        #expect(error.reason == "it is in use by another running Wayfinder app (process 4242); waited 0 s for it (\(store.lockPath) is its lock)")
        close(held)
        let claim = try store.claim()
        #expect(claim != nil)
        #expect(try text(store.lockPath).hasPrefix(#"{"format":"wayfinder.lock","pid":\#(getpid())"#))
    }

    @Test func claimsOfOneProcessShareItsLockAndTheLastOneLetsItGo() throws {
        let directory = try temporaryDirectory()
        let first = FileStateStore(path: directory + "/app.json", claimWait: 0)
        let other = open(first.lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(other) }
        var one: StateClaim? = try first.claim()
        var two: StateClaim? = try FileStateStore(path: directory + "/./app.json", claimWait: 0).claim()
        #expect(one != nil && two != nil)
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "held while a claim lives")
        one = nil
        #expect(flock(other, LOCK_EX | LOCK_NB) != 0, "held while a claim lives")
        two = nil
        #expect(flock(other, LOCK_EX | LOCK_NB) == 0, "let go with the last claim")
        _ = (one, two)
    }

    @Test func aLinkAFIFOOrAnotherProgramsFileAtTheLocksPathIsLeftAsItIs() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json", claimWait: 0)
        try "elsewhere".write(toFile: directory + "/elsewhere", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: store.lockPath, withDestinationPath: directory + "/elsewhere")
        #expect(throws: StateStoreError(path: store.lockPath, reason: "it is a symbolic link; it was left as it is")) { _ = try store.claim() }
        #expect(try text(directory + "/elsewhere") == "elsewhere")
        unlink(store.lockPath)

        #expect(mkfifo(store.lockPath, 0o600) == 0)
        #expect(throws: StateStoreError(path: store.lockPath, reason: "it is not a regular file; it was left as it is")) { _ = try store.claim() }
        #expect(kind(store.lockPath) == S_IFIFO)
        unlink(store.lockPath)

        try "my notes".write(toFile: store.lockPath, atomically: true, encoding: .utf8)
        #expect(throws: StateStoreError(path: store.lockPath, reason: "it is not a Wayfinder state lock; it was left as it is")) { _ = try store.claim() }
        #expect(try text(store.lockPath) == "my notes")
    }

    @Test func aLinkAtTheTemporaryFilesNameIsNeverWrittenThrough() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try store.save(sampleState())
        try "precious".write(toFile: directory + "/precious", atomically: true, encoding: .utf8)
        let planted = directory + "/.app.json.tmp-\(getpid())"
        try FileManager.default.createSymbolicLink(atPath: planted, withDestinationPath: directory + "/precious")
        var changed = sampleState()
        changed.app = "changed"
        try store.save(changed)
        #expect(try text(directory + "/precious") == "precious")
        #expect(kind(directory + "/app.json") == S_IFREG)
        #expect(store.load() == .loaded(changed))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: planted) == directory + "/precious")
    }

    @Test func aFIFOAtTheTemporaryFilesNamesBlocksNeitherTheSaveNorTheMark() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        for name in [".app.json.tmp-\(getpid())", ".app.json.launching.tmp-\(getpid())"] {
            #expect(mkfifo(directory + "/" + name, 0o600) == 0)
        }
        try store.save(sampleState())
        try store.writeLaunchMark(LaunchMark(launches: 1, url: "tt://menu/1"))
        #expect(store.load() == .loaded(sampleState()))
        #expect(try store.launchMark() == LaunchMark(launches: 1, url: "tt://menu/1"))
    }

    @Test func leftoversOfAnyKindNamedLikeADeadWritersTemporaryFilesGoAndNothingElse() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/app.json")
        try store.save(sampleState())
        try "precious".write(toFile: directory + "/precious", atomically: true, encoding: .utf8)
        // A process that has ended: a child, waited for.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let dead = child.processIdentifier
        let me = ProcessIdentity.current
        let gone = [".app.json.tmp-\(dead)", ".app.json.tmp-\(dead)-7-1f", ".app.json.tmp-\(me.pid)-\((me.started ?? 0) + 1)-2e"]
        try "half".write(toFile: directory + "/" + gone[0], atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: directory + "/" + gone[1], withDestinationPath: directory + "/precious")
        #expect(mkfifo(directory + "/" + gone[2], 0o600) == 0)
        let kept = [".app.json.tmp-\(me.pid)-\(me.started ?? 0)-3d", ".app.json.tmp-notes", ".app.json.tmp-\(dead)-x-1"]
        for name in kept { try "other".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8) }
        #expect(store.load() == .loaded(sampleState()))
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
        #expect(Set(names) == Set(kept + ["app.json", "precious"]))
        #expect(try text(directory + "/precious") == "precious")
    }

    @Test func aMarkIsAnotherRunningLaunchOnlyWhileItsProcessRunsWithTheStartTimeItWrote() throws {
        let parent = getppid()
        let started = ProcessIdentity.startTime(of: parent)
        #expect(LaunchMark(launches: 1, url: nil, owner: ProcessIdentity(pid: parent, started: started)).isAnotherRunningLaunch)
        if let started {
            #expect(!LaunchMark(launches: 1, url: nil, owner: ProcessIdentity(pid: parent, started: started + 1)).isAnotherRunningLaunch)
        }
        #expect(!LaunchMark(launches: 1, url: nil, owner: .current).isAnotherRunningLaunch, "this process's own mark is a failure it saw")
        #expect(!LaunchMark(launches: 1, url: nil).isAnotherRunningLaunch)
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        #expect(!LaunchMark(launches: 1, url: nil, owner: ProcessIdentity(pid: child.processIdentifier, started: nil)).isAnotherRunningLaunch)
    }

    @Test func aMarkKeepsItsOwnerThroughTheFile() throws {
        let store = FileStateStore(path: try temporaryDirectory() + "/app.json")
        let mark = LaunchMark(launches: 2, url: "tt://menu/1", owner: ProcessIdentity(pid: 77, started: 12345))
        try store.writeLaunchMark(mark)
        #expect(try text(store.launchMarkPath) == #"{"format":"wayfinder.launch","launches":2,"url":"tt://menu/1","pid":77,"started":12345}"#)
        #expect(try store.launchMark() == mark)
        try #"{"format":"wayfinder.launch","launches":1,"pid":"seven"}"#.write(toFile: store.launchMarkPath, atomically: true, encoding: .utf8)
        #expect(try store.launchMark() == LaunchMark(launches: 1, url: nil), "a damaged mark of Wayfinder's counts one launch")
    }
}

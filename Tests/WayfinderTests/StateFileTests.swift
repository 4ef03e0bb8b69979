import Foundation
import Testing
@testable import Wayfinder

private func smallState(_ url: String = "tt://menu/1", state: Value? = nil) -> NavigationState {
    NavigationState(app: "kinds", savedAt: Date(timeIntervalSince1970: 1_800_000_000), mode: .all,
                    root: .stack([.init(url: url, state: state)]), modals: [], popover: nil, contexts: [])
}

/// What a state path may be: a regular file, a link to one (written through), or a missing path.
/// Anything else is refused and left exactly as it was; a state too large to read back is never
/// written; temporary files a killed save left are removed at the next load.
@Suite("State file kinds and limits")
struct StateFileTests {
    /// Refused at load (not moved aside) and at save (not replaced), with a reason naming the kind.
    func expectRefusedAndUntouched(_ path: String, kind: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = FileStateStore(path: path)
        let directory = (path as NSString).deletingLastPathComponent
        let before = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(store.problem?.contains("it is \(kind), not a regular file; it was left as it is") == true, "\(store.problem ?? "nil")",
                sourceLocation: sourceLocation)
        guard case .unreadable(let reason, nil) = store.load() else {
            Issue.record("loaded or moved aside", sourceLocation: sourceLocation)
            return
        }
        #expect(reason.contains(kind), sourceLocation: sourceLocation)
        do {
            try store.save(smallState())
            Issue.record("saved", sourceLocation: sourceLocation)
        } catch {
            #expect(error.description.contains("it is \(kind), not a regular file"), "\(error)", sourceLocation: sourceLocation)
            #expect(!error.description.contains("NSCocoaErrorDomain"), sourceLocation: sourceLocation)
        }
        #expect(throws: StateStoreError.self, sourceLocation: sourceLocation) { try store.remove() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == before, sourceLocation: sourceLocation)
    }

    @Test func aDirectoryIsRefused() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/state.json", withIntermediateDirectories: false)
        try "keep".write(toFile: directory + "/state.json/inside.txt", atomically: false, encoding: .utf8)
        try expectRefusedAndUntouched(directory + "/state.json", kind: "a directory")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/state.json") == ["inside.txt"])
    }

    @Test func aFIFOIsRefused() throws {
        let directory = try temporaryDirectory()
        #expect(mkfifo(directory + "/state.json", 0o600) == 0)
        try expectRefusedAndUntouched(directory + "/state.json", kind: "a FIFO")
    }

    /// A device is reached through a link here, so the test never touches a real device node even
    /// when it runs as root.
    @Test func aDeviceIsRefused() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory + "/state.json", withDestinationPath: "/dev/null")
        try expectRefusedAndUntouched(directory + "/state.json", kind: "a character device")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/state.json") == "/dev/null")
    }

    @Test func aLinkToNothingIsRefused() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: directory + "/state.json", withDestinationPath: directory + "/gone.json")
        let store = FileStateStore(path: directory + "/state.json")
        #expect(store.problem?.contains("a symbolic link to nothing") == true)
        #expect(throws: StateStoreError.self) { try store.save(smallState()) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
    }

    /// A corrupt state behind a link is refused, not moved aside: moving it would leave the link
    /// leading nowhere for good. Nothing writes over it either.
    @Test func aCorruptStateBehindALinkIsLeftAsItIs() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        let target = directory + "/real/state.json"
        let corrupt = Data(#"{"format":"wayfinder.navigation","version":1,"mo"#.utf8)
        try corrupt.write(to: URL(fileURLWithPath: target))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.json", withDestinationPath: target)
        let store = FileStateStore(path: directory + "/link.json")
        guard case .unreadable(let reason, nil) = store.load() else {
            Issue.record("loaded or moved aside")
            return
        }
        #expect(reason.contains("is a symbolic link to a state file that cannot be read (\(target)); it was left as it is"), "\(reason)")
        #expect(store.problem?.contains("a symbolic link to a state file that cannot be read") == true)
        #expect(throws: StateStoreError.self) { try store.save(smallState()) }
        #expect(throws: StateStoreError.self) { try store.remove() }
        #expect(try Data(contentsOf: URL(fileURLWithPath: target)) == corrupt)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/real") == ["state.json"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.json") == target)
    }

    @Test func aLinkedStateFileIsWrittenThrough() throws {
        let directory = try temporaryDirectory()
        try FileManager.default.createDirectory(atPath: directory + "/real", withIntermediateDirectories: false)
        let store = FileStateStore(path: directory + "/real/state.json")
        try store.save(smallState("tt://menu/1"))
        try FileManager.default.createSymbolicLink(atPath: directory + "/link.json", withDestinationPath: directory + "/real/state.json")
        let linked = FileStateStore(path: directory + "/link.json")
        #expect(linked.problem == nil)
        #expect(linked.load() == .loaded(smallState("tt://menu/1")))
        try linked.save(smallState("tt://menu/2"))
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: directory + "/link.json") == directory + "/real/state.json")
        #expect(store.load() == .loaded(smallState("tt://menu/2")))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/real") == ["state.json"])
    }

    @Test func aStateTooLargeToReadBackIsNotWritten() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/state.json")
        try store.save(smallState())
        let before = try Data(contentsOf: URL(fileURLWithPath: store.path))
        let big = String(repeating: "x", count: 9 << 20)
        let oversize = NavigationState(app: "kinds", savedAt: Date(timeIntervalSince1970: 1_800_000_000), mode: .all,
                                       root: .stack([.init(url: "tt://small"), .init(url: "tt://big/1", state: ["a": .string(big), "b": .string(big)])]),
                                       modals: [], popover: nil, contexts: [])
        do {
            try store.save(oversize)
            Issue.record("saved a state over the limit")
        } catch {
            #expect(error.reason.contains("over the 16 MiB a state file may hold"), "\(error.reason)")
            #expect(error.reason.contains("the largest entry is 'tt://big/1'"), "\(error.reason)")
            #expect(error.reason.hasSuffix("the previous file stays"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store.path)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["state.json"])
    }

    /// A save killed between writing its temporary file and the rename leaves the file behind;
    /// the next load removes it, but not one a running process is still writing.
    @Test func leftoverTemporaryFilesAreRemovedAtTheNextLoad() throws {
        let directory = try temporaryDirectory()
        let store = FileStateStore(path: directory + "/state.json")
        try store.save(smallState())
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let dead = ".state.json.tmp-\(ended.processIdentifier)"
        let running = ".state.json.tmp-\(getpid())"
        let other = ".other.json.tmp-\(ended.processIdentifier)"
        for name in [dead, running, other] { try "partial".write(toFile: directory + "/" + name, atomically: false, encoding: .utf8) }
        #expect(store.load() == .loaded(smallState()))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == [other, running, "state.json"].sorted())
        // With no state file at all, leftovers go too.
        try FileManager.default.removeItem(atPath: store.path)
        try "partial".write(toFile: directory + "/" + dead, atomically: false, encoding: .utf8)
        #expect(store.load() == .missing)
        #expect(!FileManager.default.fileExists(atPath: directory + "/" + dead))
    }
}

import Foundation
import Testing
@testable import WayfinderLua

/// The watcher behind `wayfinder run --watch`, by inotify and by polling: each must notice the
/// ways editors save.
@Suite("Directory watcher")
struct DirectoryWatcherTests {
    static let mechanisms: [DirectoryWatcher.Mechanism] = [.inotify, .polling]

    func watcher(_ directory: TemporaryDirectory, _ mechanism: DirectoryWatcher.Mechanism) -> DirectoryWatcher {
        let watcher = DirectoryWatcher(directory: directory.path, polling: mechanism == .polling, pollInterval: .milliseconds(20))
        #expect(watcher.mechanism == mechanism)
        return watcher
    }

    @Test("a file saved by rename is noticed", arguments: mechanisms)
    func savedByRename(_ mechanism: DirectoryWatcher.Mechanism) throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "return 1")
        let watcher = watcher(directory, mechanism)
        #expect(watcher.changes().isEmpty)
        // Written beside, then renamed over the old file: what vim and most editors do.
        try "return 2".write(toFile: directory.subpath(".app.lua.swp"), atomically: false, encoding: .utf8)
        #expect(rename(directory.subpath(".app.lua.swp"), directory.subpath("app.lua")) == 0)
        #expect(watcher.wait(timeout: .seconds(5)) == ["app.lua"])
        #expect(watcher.changes().isEmpty, "reported once")
    }

    @Test("writes in place, new files and files in subdirectories are noticed; other files are not", arguments: mechanisms)
    func kindsOfChange(_ mechanism: DirectoryWatcher.Mechanism) throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "return 1")
        try directory.write("screens/menu.lua", "return {}")
        let watcher = watcher(directory, mechanism)

        let handle = try #require(FileHandle(forWritingAtPath: directory.subpath("screens/menu.lua")))
        handle.seekToEndOfFile()
        handle.write(Data("-- more\n".utf8))
        try handle.close()
        #expect(watcher.wait(timeout: .seconds(5)) == ["screens/menu.lua"])

        try directory.write("screens/new.lua", "return {}")
        #expect(watcher.wait(timeout: .seconds(5)) == ["screens/new.lua"])

        // A file that is not a script, changed before a script: the next answer names the script
        // alone (were the other noticed, it would be in this answer or come before it).
        try directory.write("notes.txt", "not a script")
        try directory.write("models/item.lua", "return {}")
        #expect(watcher.wait(timeout: .seconds(5)) == ["models/item.lua"], "a new directory is watched too; notes.txt is not a change")
        try directory.write("models/item.lua", "return { changed = true }")
        #expect(watcher.wait(timeout: .seconds(5)) == ["models/item.lua"])
    }

    @Test("a burst of saves is one answer", arguments: mechanisms)
    func burst(_ mechanism: DirectoryWatcher.Mechanism) throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "return 1")
        try directory.write("other.lua", "return 1")
        let watcher = watcher(directory, mechanism)
        try directory.write("app.lua", "return 2")
        try directory.write("other.lua", "return 2")
        #expect(watcher.wait(timeout: .seconds(5)) == ["app.lua", "other.lua"])
    }

    @Test("a deleted file is a change", arguments: mechanisms)
    func deleted(_ mechanism: DirectoryWatcher.Mechanism) throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "return 1")
        try directory.write("old.lua", "return 1")
        let watcher = watcher(directory, mechanism)
        try FileManager.default.removeItem(atPath: directory.subpath("old.lua"))
        #expect(watcher.wait(timeout: .seconds(5)) == ["old.lua"])
    }
}

import Foundation
import Testing
@testable import WayfinderLua

/// An entry file (`app.lua`, or a single-file app) is read as `require` reads modules: a regular
/// file of at most 16 MiB, opened without blocking, so a FIFO, a device or a huge file is refused
/// with a reason instead of hanging the host, at launch and at reload.
@Suite("Entry files")
struct EntryFileTests {
    static let app = "local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\nwf.app { root = 'tt://a' }\n"

    func loadError(_ path: String) -> String? {
        do {
            _ = try AppHost(path: path, limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300)), printSink: { _ in })
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aFIFOIsRefused() throws {
        let directory = try TemporaryDirectory()
        #expect(mkfifo(directory.subpath("app.lua"), 0o600) == 0)
        #expect(loadError(directory.path)?.contains("app.lua: not a regular file") == true, "\(loadError(directory.path) ?? "loaded")")
        #expect(mkfifo(directory.subpath("single.lua"), 0o600) == 0)
        #expect(loadError(directory.subpath("single.lua"))?.contains("single.lua: not a regular file") == true)
    }

    @Test func aDeviceIsRefused() throws {
        let directory = try TemporaryDirectory()
        try directory.link("app.lua", to: "/dev/zero")
        #expect(loadError(directory.path)?.contains("app.lua: not a regular file") == true, "\(loadError(directory.path) ?? "loaded")")
    }

    @Test func aHugeFileIsRefused() throws {
        let directory = try TemporaryDirectory()
        #expect(FileManager.default.createFile(atPath: directory.subpath("app.lua"), contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.subpath("app.lua")))
        try handle.truncate(atOffset: 17 << 20)
        try handle.close()
        #expect(loadError(directory.path)?.contains("app.lua: larger than 16 MiB") == true, "\(loadError(directory.path) ?? "loaded")")
    }

    @Test func aReloadFromAFIFOFailsAndTheAppRunsOn() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app)
        let host = try AppHost(path: directory.path, limits: LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300)), printSink: { _ in })
        try host.launch()
        try FileManager.default.removeItem(atPath: directory.subpath("app.lua"))
        #expect(mkfifo(directory.subpath("app.lua"), 0o600) == 0)
        do {
            _ = try host.reloaded()
            Issue.record("reloaded from a FIFO")
        } catch {
            #expect(String(describing: error).contains("not a regular file"), "\(error)")
        }
        #expect(host.navigator.url == "tt://a")
    }
}

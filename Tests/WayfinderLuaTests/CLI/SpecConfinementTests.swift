import Foundation
import Testing
@testable import WayfinderLua
@testable import WayfinderTesting

/// What a spec reaches through `wf.testing`: apps under its own directory (or paths given on the
/// command line) and copies it made, with state files inside those copies; copies are bounded and
/// count against the time budget, and no symbolic link leads out.
@Suite("wf.testing stays inside the spec's files")
struct SpecConfinementTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("outside/app/app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\n")
        try directory.write("outside/secret.txt", "secret")
        try directory.write("specs/apps/ok/app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\nwf.app { root = 'tt://a', persistence = 'all' }\n")
    }

    /// Runs `body` as the one test of a spec file in `specs/`; the result of `wayfinder test`.
    func runSpec(_ body: String, arguments: [String] = []) throws -> WayfinderCLI.Result {
        try directory.write("specs/confinement_spec.lua", """
            local wf = require "wayfinder"
            local outside = "\(directory.subpath("outside"))"
            local here = "\(directory.subpath("specs"))"
            local function refused(fn, ...)
              local ok, err = pcall(fn, ...)
              assert(not ok, "not refused")
              return err
            end
            it("stays inside", function()
            \(body)
            end)
            """)
        return try WayfinderCLI.run(["test", directory.subpath("specs/confinement_spec.lua"), "--time-limit", "2000"] + arguments)
    }

    func expectPasses(_ result: WayfinderCLI.Result, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.lines.last == "1 passed, 0 failed", sourceLocation: sourceLocation)
    }

    @Test func appsOutsideTheSpecsDirectoryAreRefused() throws {
        expectPasses(try runSpec("""
              assert.matches("copy_app: /etc is outside the spec's directory", refused(wf.testing.copy_app, "/etc"))
              assert.matches("outside the spec's directory", refused(wf.testing.copy_app, outside .. "/app"))
              assert.matches("outside the spec's directory", refused(wf.testing.copy_app, here .. "/../outside/app"))
              local app, err = wf.testing.launch(outside .. "/app")
              assert.is_nil(app)
              assert.matches("launch: .* is outside the spec's directory", err)
              assert.matches("is not inside a copy", refused(wf.testing.read, "/etc/passwd"))
              assert.matches("is not inside a copy", refused(wf.testing.read, outside .. "/secret.txt"))
              local copy = wf.testing.copy_app(here .. "/apps/ok")
              assert.matches("local wf", wf.testing.read(copy .. "/app.lua"))
              assert(wf.testing.launch(copy)):close()
            """))
    }

    @Test func pathsGivenOnTheCommandLineAreReadable() throws {
        expectPasses(try runSpec("""
              local copy = wf.testing.copy_app(outside .. "/app")
              assert(wf.testing.launch(copy)):close()
            """, arguments: [directory.subpath("outside/app")]))
    }

    @Test func stateFilesLieOnlyInsideCopies() throws {
        let source = try String(contentsOfFile: directory.subpath("specs/apps/ok/app.lua"), encoding: .utf8)
        expectPasses(try runSpec("""
              local app, err = wf.testing.launch(here .. "/apps/ok", { state = here .. "/apps/ok/app.lua" })
              assert.is_nil(app)
              assert.matches("launch: state: .* is not inside a copy", err)
              local copy = wf.testing.copy_app(here .. "/apps/ok")
              app = assert(wf.testing.launch(here .. "/apps/ok", { state = copy .. "/state.json" }))
              app:close()
              assert.matches('"format":"wayfinder.navigation"', wf.testing.read(copy .. "/state.json"))
            """))
        #expect(try String(contentsOfFile: directory.subpath("specs/apps/ok/app.lua"), encoding: .utf8) == source)
    }

    /// A launched app may get tighter limits than the spec's, never looser ones.
    @Test func launchedAppsStayWithinTheSpecsLimits() throws {
        expectPasses(try runSpec("""
              local app, err = wf.testing.launch(here .. "/apps/ok", { memory_limit = 4096 })
              assert.is_nil(app)
              assert.matches("memory_limit = 4096 is not understood .*from 1 to the spec's 64", err)
              app, err = wf.testing.launch(here .. "/apps/ok", { time_limit = 5000 })
              assert.is_nil(app)
              assert.matches("time_limit = 5000 is not understood .*from 1 to the spec's 2000", err)
              assert(wf.testing.launch(here .. "/apps/ok", { memory_limit = 64, time_limit = 2000 })):close()
            """))
    }

    /// At most eight apps run at once; a closed one makes room.
    @Test func aSpecRunsAtMostEightAppsAtOnce() throws {
        expectPasses(try runSpec("""
              local apps = {}
              for i = 1, 8 do apps[i] = assert(wf.testing.launch(here .. "/apps/ok")) end
              local app, err = wf.testing.launch(here .. "/apps/ok")
              assert.is_nil(app)
              assert.matches("8 apps are running already; close one first", err)
              apps[1]:close()
              assert(wf.testing.launch(here .. "/apps/ok")):close()
              for i = 2, 8 do apps[i]:close() end
              -- Apps dropped without closing make room once collected.
              for _ = 1, 8 do assert(wf.testing.launch(here .. "/apps/ok")) end
              assert(wf.testing.launch(here .. "/apps/ok")):close()
            """))
    }

    @Test func symbolicLinksDoNotLeadOut() throws {
        try directory.write("specs/apps/linked/app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\n")
        try directory.write("specs/apps/linked/data/inner.txt", "inner")
        try directory.link("specs/apps/linked/inner-link.txt", to: directory.subpath("specs/apps/linked/data/inner.txt"))
        try directory.write("specs/apps/escaping/app.lua", "return 1\n")
        try directory.link("specs/apps/escaping/secret.txt", to: directory.subpath("outside/secret.txt"))
        try directory.write("specs/apps/escaping-dir/app.lua", "return 1\n")
        try directory.link("specs/apps/escaping-dir/etc", to: "/etc")
        expectPasses(try runSpec("""
              local copy = wf.testing.copy_app(here .. "/apps/linked")
              assert.equal("inner", wf.testing.read(copy .. "/inner-link.txt"))
              assert.matches("escaping/secret.txt is a symbolic link that does not lead to a file inside the app",
                refused(wf.testing.copy_app, here .. "/apps/escaping"))
              assert.matches("escaping%-dir/etc is a symbolic link", refused(wf.testing.copy_app, here .. "/apps/escaping-dir"))
            """))
    }

    @Test func copiesAreBounded() throws {
        try directory.write("specs/apps/huge/app.lua", "return 1\n")
        #expect(FileManager.default.createFile(atPath: directory.subpath("specs/apps/huge/blob.bin"), contents: nil))
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: directory.subpath("specs/apps/huge/blob.bin")))
        try handle.truncate(atOffset: 65 << 20)
        try handle.close()
        try directory.write("specs/apps/fifo/app.lua", "return 1\n")
        #expect(mkfifo(directory.subpath("specs/apps/fifo/pipe"), 0o600) == 0)
        expectPasses(try runSpec("""
              assert.matches("cannot copy .*: it holds more than 64 MiB", refused(wf.testing.copy_app, here .. "/apps/huge"))
              assert.matches("fifo/pipe is not a regular file or directory", refused(wf.testing.copy_app, here .. "/apps/fifo"))
            """))
    }

    /// The copies of one spec file are capped together, as their files' sizes (a sparse file
    /// counts as its size): a copy beyond the cap is refused with the reason.
    @Test func theCopiesOfASpecFileAreCappedTogether() throws {
        try directory.write("specs/apps/sparse/app.lua", "return 1\n")
        let sparse = directory.subpath("specs/apps/sparse/blob.bin")
        #expect(FileManager.default.createFile(atPath: sparse, contents: nil))
        #expect(truncate(sparse, 400 << 10) == 0)
        let workspace = Workspace(specFile: directory.subpath("specs/some_spec.lua"), copiesByteLimit: 1 << 20)
        let first = try workspace.copyApp(directory.subpath("specs/apps/sparse"))
        _ = try workspace.copyApp(directory.subpath("specs/apps/sparse"))
        for _ in 0..<3 {
            #expect { try workspace.copyApp(directory.subpath("specs/apps/sparse")) } throws: {
                "\($0)".contains("cannot copy \(self.directory.subpath("specs/apps/sparse")): it holds more than the ")
                    && "\($0)".contains(" left of the 1 MiB this spec file's copies may hold together")
            }
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: first + "/blob.bin")).count == 400 << 10)
    }

    /// Copying is work done for the script: the copy asks the calling step's budget after every
    /// entry, and stops (leaving no partial copy) as soon as the budget says it is spent. The budget
    /// is a counter here, so the test does not depend on how fast the machine copies.
    @Test func copyingStopsWhenTheBudgetIsSpent() throws {
        for index in 0..<40 { try directory.write("specs/apps/many/file\(index).txt", "x") }
        try directory.write("specs/apps/many/app.lua", "return 1\n")
        let workspace = Workspace(specFile: directory.subpath("specs/some_spec.lua"))
        struct Spent: Error {}
        var asked = 0
        #expect(throws: (any Error).self) {
            _ = try workspace.copyApp(directory.subpath("specs/apps/many")) {
                asked += 1
                if asked == 10 { throw Spent() }
            }
        }
        #expect(asked == 10)
        var unlimited = 0
        let copy = try workspace.copyApp(directory.subpath("specs/apps/many")) { unlimited += 1 }
        #expect(unlimited >= 41, "the budget is asked after every entry")
        #expect(FileManager.default.fileExists(atPath: copy + "/file39.txt"))
    }
}

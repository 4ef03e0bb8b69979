import Foundation
import Testing
@testable import WayfinderTesting

/// `wayfinder test --coverage` through the real binary.
@Suite("wayfinder test --coverage")
struct RouteCoverageTests {
    static let app = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render() return { title = self.name } end
        function Page:initWithName_pick(name, item) self.picked = item end
        wf.map:from("tt://home", Page, { selector = "initWithName:" })
        wf.map:from("tt://page/(initWithName:)", Page)
        wf.map:from("tt://page/(initWithName:)#(pick:)", Page)
        wf.map:from("tt://hello", function() return true end, { mode = "none" })
        wf.map:from("tt://never", Page, { selector = "initWithName:" })
        wf.app { root = "tt://home", persistence = "none" }
        """

    static let spec = """
        local wf = require "wayfinder"
        it("walks", function()
          local app = assert(wf.testing.launch("app"))
          assert.is_true(app:open("tt://page/a"))
          assert.is_true(app:open("tt://page/a#x"))
          assert.is_true(app:open("tt://hello"))
          app:close()
        end)
        """

    @Test func namesTheRoutesTheSpecsOpenedAndTheOnesTheyNeverDid() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app/app.lua", Self.app)
        try directory.write("spec/walk_spec.lua", Self.spec)
        let result = try WayfinderCLI.run(["test", "--coverage"], directory: directory.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.contains("route coverage of app: 4 of 5 routes opened"))
        #expect(result.lines.contains("  never opened: tt://never"))
        #expect(result.lines.filter { $0.hasPrefix("  never opened:") }.count == 1)
        let without = try WayfinderCLI.run(["test"], directory: directory.path)
        #expect(!without.stdout.contains("route coverage"))
    }

    @Test func aCopiedAppCountsTowardItsOriginalAndTAPStaysClean() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app/app.lua", Self.app)
        try directory.write("spec/copy_spec.lua", """
            local wf = require "wayfinder"
            it("opens the copy", function()
              local app = assert(wf.testing.launch(wf.testing.copy_app("app")))
              assert.is_true(app:open("tt://never"))
              app:close()
            end)
            """)
        let result = try WayfinderCLI.run(["test", "--coverage", "--tap"], directory: directory.path)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(!result.stdout.contains("route coverage"))
        #expect(result.stderr.contains("route coverage of app: 2 of 5 routes opened"))
    }

    @Test func specsThatLaunchNoAppSaySo() throws {
        let directory = try TemporaryDirectory()
        try directory.write("spec/plain_spec.lua", #"it("adds", function() assert.equal(2, 1 + 1) end)"#)
        let result = try WayfinderCLI.run(["test", "--coverage"], directory: directory.path)
        #expect(result.status == 0)
        #expect(result.stdout.contains("route coverage: no spec launched an app"))
    }
}

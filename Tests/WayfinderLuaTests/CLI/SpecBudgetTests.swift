import Foundation
import Testing
@testable import WayfinderLua

/// A spec step's time budget counts the time spent in the apps it drives: the apps run on the
/// same thread's CPU clock, and the budget is asked again whenever a binding returns, so a spec
/// that spends its time in native calls stops at its own line. An app's call gets at most what
/// remains of the step's budget, so the first call that loops ends exactly when the step's budget
/// does, and the step stops there naming both lines: the count of calls made does not depend on
/// the machine's speed.
@Suite("A spec's budget covers the apps it drives")
struct SpecBudgetTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("specs/apps/loop/app.lua", """
            local wf = require 'wayfinder'
            wf.map:from('tt://a', function() return {} end)
            wf.map:from('tt://loop', function() while true do end end)
            wf.map:from('tt://guarded', function() return {} end, { external = true, guard = function() while true do end end })
            wf.app { root = 'tt://a' }
            """)
        try directory.write("specs/apps/spin/app.lua", "while true do end\n")
    }

    /// Runs `body` as the one test of `specs/budget_spec.lua` under a 300 ms budget.
    func runSpec(_ body: String) throws -> WayfinderCLI.Result {
        try directory.write("specs/budget_spec.lua", """
            local wf = require "wayfinder"
            local here = "\(directory.subpath("specs"))"
            it("spends its time in apps", function()
            \(body)
            end)
            """)
        return try WayfinderCLI.run(["test", directory.subpath("specs/budget_spec.lua"), "--time-limit", "300"])
    }

    @Test func openingAnAppThatLoopsSpendsTheStepsBudget() throws {
        let result = try runSpec("""
              local app = assert(wf.testing.launch(here .. "/apps/loop"))
              local opens = 0
              for _ = 1, 4 do
                opens = opens + 1
                print("open " .. opens)
                app:open("tt://loop")
              end
            """)
        let output = result.stdout + result.stderr
        #expect(result.status != 0, "\(output)")
        #expect(output.contains("budget_spec.lua:9: time budget of 300 ms exceeded (in the app: cannot open 'tt://loop': app.lua:3: time budget of 300 ms exceeded)"),
                "\(output)")
        #expect(output.contains("open 1"), "\(output)")
        #expect(!output.contains("open 2"), "one open burns the app's budget, and so the step's: \(output)")
    }

    /// A guard the app's navigator asks, for a link from outside, is the app's work too.
    @Test func aGuardThatLoopsInADrivenAppSpendsTheStepsBudget() throws {
        let result = try runSpec("""
              local app = assert(wf.testing.launch(here .. "/apps/loop"))
              print("link")
              app:handle_link("tt://guarded")
              print("after the link")
            """)
        let output = result.stdout + result.stderr
        #expect(result.status != 0, "\(output)")
        #expect(output.contains("budget_spec.lua:6: time budget of 300 ms exceeded (in the app: cannot open 'tt://guarded': app.lua:4: time budget of 300 ms exceeded)"),
                "\(output)")
        #expect(output.contains("link"), "\(output)")
        #expect(!output.contains("after the link"), "\(output)")
    }

    @Test func launchingAnAppWhoseLoadLoopsSpendsTheStepsBudget() throws {
        let result = try runSpec("""
              local launches = 0
              for _ = 1, 4 do
                launches = launches + 1
                print("launch " .. launches)
                wf.testing.launch(here .. "/apps/spin")
              end
            """)
        let output = result.stdout + result.stderr
        #expect(result.status != 0, "\(output)")
        #expect(output.contains("budget_spec.lua:8: time budget of 300 ms exceeded (in the app: app.lua:1: time budget of 300 ms exceeded while loading the app)"),
                "\(output)")
        #expect(output.contains("launch 1"), "\(output)")
        #expect(!output.contains("launch 2"), "one launch burns the app's budget, and so the step's: \(output)")
    }
}

import Foundation
import Testing
@testable import WayfinderTesting

/// A `.busted` file widens nothing: its `ROOT`s and `lpath` templates must lead inside the
/// project, so what a spec may read stays what the command line gave and the spec's own project.
@Suite(".busted stays inside its project")
struct BustedConfigConfinementTests {
    let base: TemporaryDirectory
    var project: String { base.subpath("project") }
    var outside: String { base.subpath("outside") }

    init() throws {
        base = try TemporaryDirectory()
        try base.write("outside/private/secret.txt", "the secret words")
        try base.write("outside/elsewhere_spec.lua", "it('runs from outside', function() end)")
        try base.write("project/spec/leak_spec.lua", """
            local wf = require "wayfinder"
            it("reads what it may", function()
              local ok, copy = pcall(wf.testing.copy_app, "\(base.subpath("outside/private"))")
              if ok then print(wf.testing.read(copy .. "/secret.txt")) else print("refused: " .. tostring(copy)) end
            end)
            """)
    }

    func test(_ arguments: [String] = []) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run(["test"] + arguments + ["--time-limit", "2000"], directory: project)
    }

    func expectRefused(_ busted: String, naming value: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try base.write("project/.busted", busted)
        let result = try test()
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stderr.contains(".busted") && result.stderr.contains("'\(value)'") && result.stderr.contains("outside the project"),
                "\(result.stderr)", sourceLocation: sourceLocation)
        #expect(!result.stdout.contains("passed") && !result.stderr.contains("the secret words"), sourceLocation: sourceLocation)
    }

    @Test func aRootOutsideTheProjectIsRefusedAndReadsNothing() throws {
        try expectRefused("return { default = { ROOT = { 'spec', '\(outside)' } } }", naming: outside)
        try expectRefused("return { _all = { ROOT = '\(outside)/private' } }", naming: outside + "/private")
        try expectRefused("return { default = { ROOT = { 'spec', '../outside' } } }", naming: "../outside")
        try expectRefused("return { default = { ROOT = { 'spec/../../outside/' } } }", naming: "spec/../../outside/")
        try base.link("project/vendor", to: outside)
        try expectRefused("return { default = { ROOT = { 'spec', 'vendor' } } }", naming: "vendor")
        try expectRefused("return { default = { ROOT = { 'spec', 'vendor/private/..' } } }", naming: "vendor/private/..")
    }

    @Test func anLpathOutsideTheProjectIsRefused() throws {
        try expectRefused("return { default = { lpath = './src/?.lua;../outside/?.lua' } }", naming: "../outside/?.lua")
        try expectRefused("return { default = { lpath = '/usr/share/lua/5.4/?.lua' } }", naming: "/usr/share/lua/5.4/?.lua")
        try expectRefused("return { default = { lpath = './?/../../../?.lua' } }", naming: "./?/../../../?.lua")
    }

    /// Inside the project, the same shapes are accepted, and a spec still reaches only what the
    /// command line gave.
    @Test func pathsInsideTheProjectWidenNothing() throws {
        try base.write("project/tests/inner_spec.lua", "it('inner', function() end)")
        try base.link("project/alias", to: project + "/tests")
        try base.write("project/.busted", """
            return { default = { ROOT = { 'spec', '\(project)//tests/', './alias', 'tests/../spec' }, lpath = './lib/?.lua;lib//?/init.lua' } }
            """)
        let configured = try test(["--verbose"])
        #expect(configured.status == 0, "\(configured.stdout)\(configured.stderr)")
        #expect(configured.stderr.contains("refused: copy_app: ") && configured.stderr.contains("is outside the spec's directory"))
        #expect(!configured.stderr.contains("the secret words"))

        let given = try test(["spec", outside + "/private"])
        #expect(given.status == 0, "\(given.stdout)\(given.stderr)")
        #expect(given.stderr.contains("the secret words"), "a path given on the command line may be read")
    }
}

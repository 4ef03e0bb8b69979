import Foundation
import Testing

/// The `wayfinder` binary carries the bundled Lua modules: copied alone into an empty directory,
/// with no `lua/` beside it or under the working directory and `$WAYFINDER_LUA_PATH` unset, it
/// runs, opens and tests an app. `$WAYFINDER_LUA_PATH` still points it at a directory of modules.
@Suite("The binary alone")
struct LoneBinaryTests {
    static let overrideVariable = "WAYFINDER_LUA_PATH"

    /// A copy of the binary in `bin/` of a fresh directory, and beside it decoys where an
    /// installed layout once kept the modules (`../share/wayfinder/lua`), which fail if loaded;
    /// `work/` holds a copy of the restaurant app and a spec that drives it.
    final class Lone {
        let root = try! TemporaryDirectory()
        let binary: URL
        var work: String { root.subpath("work") }

        init() throws {
            binary = URL(fileURLWithPath: root.subpath("bin/wayfinder"))
            try FileManager.default.createDirectory(at: binary.deletingLastPathComponent(), withIntermediateDirectories: true)
            // A hard link, not a copy: a copy is written through a descriptor that a process
            // another test forks meanwhile inherits, and running a file still open for writing
            // fails with "Text file busy". A link opens nothing; across file systems, copy.
            do { try FileManager.default.linkItem(at: WayfinderCLI.executable, to: binary) } catch {
                try FileManager.default.copyItem(at: WayfinderCLI.executable, to: binary)
            }
            try root.write("share/wayfinder/lua/wayfinder/init.lua", "error('the modules beside the binary were loaded')")
            try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: WayfinderCLI.repositoryRoot.appendingPathComponent("lua/examples/restaurant").path,
                                             toPath: root.subpath("work/restaurant"))
            try root.write("work/spec/restaurant_spec.lua", """
                local wf = require "wayfinder"
                describe("the restaurant", function()
                  it("orders a pizza", function()
                    local app = assert(wf.testing.launch("restaurant"))
                    assert.is_true(app:open("tt://order?waitress=Betty#pizza"))
                    assert.equal("Place Your Order", app:render().title)
                    print("wayfinder " .. wf.version)
                    app:close()
                  end)
                end)
                """)
        }

        func run(_ arguments: [String], input: String? = nil, override: String? = nil, in directory: String? = nil) throws -> WayfinderCLI.Result {
            try WayfinderCLI.run(arguments, input: input, directory: directory ?? work,
                                 environment: override.map { [LoneBinaryTests.overrideVariable: $0] } ?? [:],
                                 unsetting: override == nil ? [LoneBinaryTests.overrideVariable] : [], binary: binary)
        }
    }

    @Test func runOpenAndTestNeedNoFileBesideTheBinary() throws {
        let lone = try Lone()
        let open = try lone.run(["open", "restaurant", "tt://food/pizza", "--json"])
        #expect(open.status == 0, "\(open.stderr)")
        #expect(open.stdout.contains("\"visible\":\"tt://food/pizza\""), "\(open.stdout)")

        let run = try lone.run(["run", "restaurant", "--no-state"], input: "o tt://food/pizza\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Order Pizza"), "\(run.stdout)")

        let test = try lone.run(["test", "spec"])
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("1 passed, 0 failed"), "\(test.stdout)")
        #expect((test.stdout + test.stderr).contains("wayfinder 0.1.0"))

        let new = try lone.run(["new", "demo"])
        #expect(new.status == 0, "\(new.stderr)")
        let demo = try lone.run(["test"], in: lone.root.subpath("work/demo"))
        #expect(demo.status == 0, "\(demo.stdout)\(demo.stderr)")
    }

    @Test func theOverrideDirectoryIsReadInstead() throws {
        let lone = try Lone()
        let modules = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/wayfinder").path
        try FileManager.default.copyItem(atPath: modules, toPath: lone.root.subpath("override/wayfinder"))
        let initFile = lone.root.subpath("override/wayfinder/init.lua")
        let original = try String(contentsOfFile: initFile, encoding: .utf8)
        #expect(original.contains("version = \"0.1.0\""))
        try original.replacingOccurrences(of: "version = \"0.1.0\"", with: "version = \"edited\"")
            .write(toFile: initFile, atomically: true, encoding: .utf8)
        let test = try lone.run(["test", "spec"], override: lone.root.subpath("override"))
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect((test.stdout + test.stderr).contains("wayfinder edited"), "\(test.stdout)\(test.stderr)")
    }

    @Test func anOverrideWithoutTheModulesIsAnError() throws {
        let lone = try Lone()
        try lone.root.write("empty/README", "no modules here")
        for override in [lone.root.subpath("empty"), lone.root.subpath("nowhere")] {
            let open = try lone.run(["open", "restaurant", "tt://food/pizza"], override: override)
            #expect(open.status == 2)
            #expect(open.stderr.contains("WAYFINDER_LUA_PATH is set to '\(override)', which holds no complete wayfinder/ modules"), "\(open.stderr)")
        }
    }
}

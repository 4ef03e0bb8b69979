import Foundation
import Testing

/// `wayfinder test --watch` through the real binary: a save reruns the spec files it concerns
/// (the spec itself, or the app it launched), each round ending in one summary line.
@Suite("wayfinder test --watch")
struct TestWatchTests {
    static func app(title: String) -> String {
        """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:render() return { title = "\(title)" } end
        wf.map:from("tt://home", Page)
        wf.app { root = "tt://home", persistence = "none" }
        """
    }

    static func titleSpec(app: String) -> String {
        """
        local wf = require "wayfinder"
        it("shows One", function()
          local app = assert(wf.testing.launch("\(app)"))
          assert.equal("One", app:render().title)
          app:close()
        end)
        """
    }

    func save(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    @Test("a save reruns the specs it concerns", arguments: [false, true])
    func rerunsOnSave(polling: Bool) throws {
        let directory = try TemporaryDirectory()
        let specs = directory.subpath("spec")
        try directory.write("spec/app/app.lua", Self.app(title: "One"))
        try directory.write("spec/title_spec.lua", Self.titleSpec(app: directory.subpath("spec/app")))
        try directory.write("spec/other_spec.lua", #"it("adds", function() assert.equal(2, 1 + 1) end)"#)
        let run = try LiveProcess(["test", specs, "--watch"] + (polling ? ["--poll"] : []))
        defer { if run.process.isRunning { run.process.terminate() } }
        #expect(run.waitFor("watch: ran 2 spec files: 2 passed, 0 failed"))
        #expect(run.waitFor("for changes (\(polling ? "polling" : "inotify"))"))

        try save(Self.app(title: "Two"), to: directory.subpath("spec/app/app.lua"))
        #expect(run.waitFor("watch: app.lua changed: ran 1 spec file: 0 passed, 1 failed"), "\(run.text)")
        #expect(run.text.contains("FAIL \(specs)/title_spec.lua: shows One"))

        try save(Self.app(title: "One"), to: directory.subpath("spec/app/app.lua"))
        #expect(run.waitFor("watch: app.lua changed: ran 1 spec file: 1 passed, 0 failed"), "\(run.text)")

        try save(#"it("adds", function() assert.equal(3, 1 + 2) end) it("again", function() end)"#, to: directory.subpath("spec/other_spec.lua"))
        #expect(run.waitFor("watch: other_spec.lua changed: ran 1 spec file: 2 passed, 0 failed"), "\(run.text)")

        try save(#"it("is new", function() end)"#, to: directory.subpath("spec/new_spec.lua"))
        #expect(run.waitFor("watch: new_spec.lua changed: ran 1 spec file: 1 passed, 0 failed"), "\(run.text)")

        run.send("")
        #expect(run.waitFor("watch: ran 3 spec files: 4 passed, 0 failed"), "\(run.text)")
        #expect(run.finish() == 0)
    }

    /// `wayfinder new`'s layout: the specs lie inside the app they launch. A new or edited spec
    /// file reruns alone; a change to the app reruns every spec that launched it.
    @Test func specsInsideTheirAppRerunAloneWhenTheyChange() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app(title: "One"))
        let launching = Self.titleSpec(app: directory.path)
        try directory.write("spec/a_spec.lua", launching)
        try directory.write("spec/b_spec.lua", launching)
        let run = try LiveProcess(["test", directory.subpath("spec"), "--watch"])
        defer { if run.process.isRunning { run.process.terminate() } }
        #expect(run.waitFor("watch: ran 2 spec files: 2 passed, 0 failed"), "\(run.text)")
        #expect(run.waitFor("for changes (inotify)"), "\(run.text)")

        try save(launching, to: directory.subpath("spec/c_spec.lua"))
        #expect(run.waitFor("watch: c_spec.lua changed: ran 1 spec file: 1 passed, 0 failed"), "\(run.text)")
        try save(launching + "\nit(\"also\", function() end)\n", to: directory.subpath("spec/a_spec.lua"))
        #expect(run.waitFor("watch: a_spec.lua changed: ran 1 spec file: 2 passed, 0 failed"), "\(run.text)")
        try save(Self.app(title: "Two"), to: directory.subpath("app.lua"))
        #expect(run.waitFor("watch: app.lua changed: ran 3 spec files: 1 passed, 3 failed"), "\(run.text)")
        #expect(run.finish() == 0)
    }

    @Test func watchRefusesOptionsItCannotHonour() throws {
        for extra in [["--coverage"], ["--tap"], ["--list"], ["--junit", "x.xml"]] {
            let result = try WayfinderCLI.run(["test", "--watch"] + extra)
            #expect(result.status == 2)
            #expect(result.stderr.contains("--watch prints plain results"))
        }
        let poll = try WayfinderCLI.run(["test", "--poll"])
        #expect(poll.status == 2)
        #expect(poll.stderr.contains("--poll chooses how --watch looks for changes"))
    }
}

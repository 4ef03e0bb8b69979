import Foundation
import Testing

/// `wayfinder run --watch` through the real binary: edits saved to disk while it runs are
/// picked up, good ones swapped in with the route changes on screen, broken ones shown as an
/// error while the app runs on.
@Suite("wayfinder run --watch")
struct WatchTests {
    static func app(title: String, extraRoute: String = "") -> String {
        """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render() return { title = "\(title) " .. self.name } end
        wf.map:from("tt://page/(initWithName:)", Page)
        \(extraRoute)
        wf.app { root = "tt://page/a" }
        """
    }

    /// Saves `text` as editors do: a temporary file renamed over the old one.
    func save(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    @Test("a good save is reloaded in place, with the route changes reported", arguments: [false, true])
    func goodSave(polling: Bool) throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app(title: "Page"))
        let run = try LiveProcess(["run", directory.path, "--watch", "--no-state"] + (polling ? ["--poll"] : []))
        #expect(run.waitFor("watching \(URL(fileURLWithPath: directory.path).standardizedFileURL.path) for changes (\(polling ? "polling" : "inotify"))"))
        run.send("o tt://page/b")
        #expect(run.waitFor("Page b"))
        try save(Self.app(title: "Leaf", extraRoute: #"wf.map:from("tt://about", Page)"#), to: directory.subpath("app.lua"))
        #expect(run.waitFor("reloaded (app.lua): routes: 1 added (tt://about)"))
        #expect(run.waitFor("Leaf b"))
        run.send("b")
        #expect(run.waitFor("Leaf a"), "the entry below is made by the new scripts")
        #expect(run.finish() == 0)
        #expect(run.text.contains("~ changed: app.lua"))
    }

    @Test("a broken save keeps the app and shows the error with its line until a good save")
    func brokenSave() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app(title: "Page"))
        let run = try LiveProcess(["run", directory.path, "--watch", "--no-state"])
        #expect(run.waitFor("Page a"))
        try save(Self.app(title: "Page") + "\nthis is not lua\n", to: directory.subpath("app.lua"))
        #expect(run.waitFor("! reload failed, the app runs on unchanged: app.lua:8: syntax error near 'is'"), "\(run.text)")
        run.send("o tt://page/c")
        #expect(run.waitFor("Page c"), "the old app still answers")
        #expect(run.waitFor("! reload failed", count: 2), "the error stays on the next screen")
        try save(Self.app(title: "Fixed"), to: directory.subpath("app.lua"))
        #expect(run.waitFor("Fixed c"))
        #expect(run.waitFor("routes: no change"))
        #expect(run.finish() == 0)
    }

    @Test("r reloads without --watch; --poll needs --watch")
    func reloadCommand() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.app(title: "Page"))
        let run = try LiveProcess(["run", directory.path, "--no-state"])
        #expect(run.waitFor("Page a"))
        try save(Self.app(title: "Next"), to: directory.subpath("app.lua"))
        run.send("r")
        #expect(run.waitFor("Next a"))
        #expect(run.waitFor("reloaded: routes: no change"))
        #expect(run.finish() == 0)

        let refused = try WayfinderCLI.run(["run", directory.path, "--poll"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--poll chooses how --watch looks for changes"))
    }
}

import Foundation
import Testing
import Wayfinder

/// Chains as long as an app or a state file makes them, through the commands a user runs: a
/// screen opened with a context 20,000 layers deep, routes each the parent of the next, and a
/// state file whose context chain is 100,000 layers deep. Each ends with the tree or a clear
/// error, never with the process killed by a signal.
@Suite("deep chains through the command line")
struct DeepInputCLITests {
    /// An app whose `tt://go` opens `tt://deep` with a context 20,000 layers deep (and whose
    /// root is `root`).
    static func contextApp(root: String = "tt://home", options: String = "") -> String {
        """
        local wf = require "wayfinder"
        local Home = wf.controller "Home"
        function Home:render() return { title = "home" } end
        local Deep = wf.controller "Deep"
        function Deep:render() return { title = "deep " .. tostring(self.context:get("k")) } end
        function Deep:init() print("made with k = " .. tostring(self.context:get("k"))) end
        wf.map:from("tt://home", Home, { mode = "share" })
        wf.map:from("tt://deep", Deep)
        wf.map:from("tt://go", function()
          local ctx = wf.context.app
          for _ = 1, 20000 do ctx = wf.context { inner = ctx } end
          ctx:set("k", 7)
          wf.navigator:open { url = "tt://deep", context = ctx }
        end, { mode = "none" })
        wf.app { name = "deep", root = "\(root)"\(options) }
        """
    }

    /// Routes `tt://p/0` to `tt://p/<count>`, each the parent of the next and all external.
    static func parentApp(count: Int) -> String {
        """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:render() return { title = "page" } end
        wf.map:from("tt://p/0", Page, { external = true })
        for i = 1, \(count) do
          wf.map:from("tt://p/" .. i, Page, { parent = "tt://p/" .. (i - 1), external = true })
        end
        wf.app { name = "parents", root = "tt://p/0" }
        """
    }

    /// A state of the context app: `tt://deep` over `tt://home`, its context `depth` layers over
    /// the app's.
    static func deepState(depth: Int, appVersion: Int = 1) -> String {
        var contexts = [#"{"name":"app","values":{},"app":true}"#]
        contexts.reserveCapacity(depth + 1)
        for index in 1...depth { contexts.append(#"{"values":{},"inner":\#(index - 1)}"#) }
        contexts[depth] = #"{"values":{"k":7},"inner":\#(depth - 1)}"#
        return #"{"format":"wayfinder.navigation","version":1,"app":"deep","app_version":\#(appVersion),"saved_at":"2026-01-01T00:00:00Z","mode":"all","#
            + #""root":{"kind":"stack","entries":[{"url":"tt://home"},{"url":"tt://deep","context":\#(depth),"important":true}]},"modals":[],"#
            + #""contexts":["# + contexts.joined(separator: ",") + "]}"
    }

    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// How many layers the context of the last entry saved in the state file at `path` chains
    /// through, its own and the app's included.
    private func savedChain(_ path: String) throws -> Int {
        let document = try JSON.decode(bytes: Array(try Data(contentsOf: URL(fileURLWithPath: path))))
        let state = try NavigationState(document: document)
        var layers = 0
        var index = state.entries.last?.context
        while let at = index {
            layers += 1
            index = state.contexts[at].inner
        }
        return layers
    }

    @Test func aScreenOpenedWithTwentyThousandLayersIsSavedAndRestored() throws {
        try directory.write("app/app.lua", Self.contextApp())
        let state = directory.subpath("deep.json")
        let first = try WayfinderCLI.run(["open", directory.subpath("app"), "tt://go", "--state", state])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stdout == "stack: tt://home > tt://deep\nvisible: tt://deep\n")
        #expect(try savedChain(state) == 20_001, "the 20,000 layers and the app's")
        // A second launch restores the chain: the screen reads the value on its outermost layer.
        let second = try WayfinderCLI.run(["open", directory.subpath("app"), "--state", state])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout == "stack: tt://home (not loaded) > tt://deep\nvisible: tt://deep\n")
        #expect(second.stderr == "made with k = 7\n", "\(second.stderr)")
        #expect(try savedChain(state) == 20_001)
    }

    @Test func aSpecRelaunchesAnAppWithTwentyThousandLayers() throws {
        try directory.write("app/app.lua", Self.contextApp())
        try directory.write("deep_spec.lua", """
        local wf = require "wayfinder"
        describe("a deep context", function()
          it("survives a relaunch", function()
            local copy = wf.testing.copy_app("app")
            local app = assert(wf.testing.launch(copy, { state = copy .. "/deep.json" }))
            assert.is_true(app:open("tt://go"))
            assert.is_true(app:relaunch())
            assert.equal("deep 7", app:render().title)
            app:close()
          end)
        end)
        """)
        let result = try WayfinderCLI.run(["test", "deep_spec.lua", "--time-limit", "60000"], directory: directory.path)
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stdout.contains("1 passed"), "\(result.stdout)")
    }

    @Test func serveLaunchesAnAppThatOpensTwentyThousandLayersAtItsRoot() throws {
        try directory.write("app/app.lua", Self.contextApp(root: "tt://go"))
        let state = directory.subpath("deep.json")
        let serve = try LiveProcess(["serve", directory.subpath("app"), "--state", state, "--no-watch"])
        defer {
            if serve.process.isRunning { serve.process.terminate() }
            _ = serve.exitStatus()
        }
        // Either it serves or it has ended: no deadline races the machine's speed (a wait of
        // minutes only keeps a broken build from hanging the suite).
        let deadline = Date().addingTimeInterval(600)
        while serve.process.isRunning && !serve.text.contains("Ctrl-C stops the server") && Date() < deadline { usleep(50_000) }
        #expect(serve.process.isRunning, "serve ended: \(serve.text)")
        #expect(serve.text.contains("Ctrl-C stops the server"), "\(serve.text)")
        #expect(try savedChain(state) == 20_001)
    }

    @Test(arguments: [
        ["tt://p/3000"],
        ["--link", "tt://p/3000"],
    ])
    func openRefusesAChainOfThreeThousandParents(arguments: [String]) throws {
        try directory.write("app/app.lua", Self.parentApp(count: 3000))
        let result = try WayfinderCLI.run(["open", directory.subpath("app")] + arguments)
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("cannot open 'tt://p/3000': its parents, each the parent of the next, are more than 100 screens deep"),
                "\(result.stderr)")
        #expect(result.stdout == "stack: tt://p/0\nvisible: tt://p/0\n", "nothing changed")
    }

    @Test func openPlacesAChainOfAHundredParents() throws {
        // The root, tt://p/0, is in the tree already: tt://p/101 opens the hundred between.
        try directory.write("app/app.lua", Self.parentApp(count: 102))
        let result = try WayfinderCLI.run(["open", directory.subpath("app"), "--json", "tt://p/101"])
        #expect(result.status == 0, "\(result.stderr)")
        let urls = (0...101).map { "tt://p/\($0)" }
        let tree = try JSON.decode(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(tree["root"]?["entries"]?.arrayValue?.compactMap { $0["url"]?.stringValue } == urls, "\(result.stdout)")
        let refused = try WayfinderCLI.run(["open", directory.subpath("app"), "tt://p/102"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot open 'tt://p/102': its parents, each the parent of the next, are more than 100 screens deep"),
                "\(refused.stderr)")
    }

    @Test func crawlFromTheEndOfAChainOfThreeThousandParentsReportsItDead() throws {
        try directory.write("app/app.lua", Self.parentApp(count: 3000))
        let result = try WayfinderCLI.run(["crawl", directory.subpath("app"), "--from", "tt://p/3000", "--json"])
        #expect(result.status == 1, "a dead link: \(result.stderr)")
        let report = try JSON.decode(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let dead = try #require(report["dead"]?.arrayValue)
        #expect(dead.count == 1 && dead[0]["url"] == "tt://p/3000", "\(dead)")
        #expect(dead.first?["reason"]?.stringValue == "cannot open 'tt://p/3000': its parents, each the parent of the next, are more than 100 screens deep")
    }

    @Test func aStateFileWithAHundredThousandLayersIsRestored() throws {
        try directory.write("app/app.lua", Self.contextApp())
        let state = directory.subpath("deep.json")
        try directory.write("deep.json", Self.deepState(depth: 100_000))
        let result = try WayfinderCLI.run(["open", directory.subpath("app"), "--state", state])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home (not loaded) > tt://deep\nvisible: tt://deep\n")
        #expect(result.stderr == "made with k = 7\n", "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state + ".launching"), "the launch finished")
        #expect(try savedChain(state) == 100_001, "saved again, whole")
    }

    @Test func aMigrationHandedAContextChainOfTwentyThousandLayersGivesItBackWhole() throws {
        try directory.write("app/app.lua", Self.contextApp(options: ", version = 2, migrate = function(state) return state end"))
        let state = directory.subpath("deep.json")
        try directory.write("deep.json", Self.deepState(depth: 20_000))
        let result = try WayfinderCLI.run(["open", directory.subpath("app"), "--state", state])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home (not loaded) > tt://deep\nvisible: tt://deep\n")
        #expect(result.stderr == "made with k = 7\n", "migrated, not set aside: \(result.stderr)")
        #expect(try savedChain(state) == 20_001)
    }

    @Test func layersMadeLazilyAreMadeInALoopWhenRead() throws {
        // 300,000 layers, each waiting for its Swift layer until the outermost is read: more than
        // Lua's stack holds calls.
        try directory.write("app/app.lua", """
        local wf = require "wayfinder"
        local Home = wf.controller "Home"
        function Home:render() return { title = "home" } end
        wf.map:from("tt://home", Home)
        wf.map:from("tt://lazy/(n:int)", function(route)
          local ctx = wf.context.app
          for _ = 1, route.params.n do ctx = wf.context._layer(ctx) end
          wf.context.app:set("deepest", "here")
          print(ctx:get("deepest"))
        end, { mode = "none" })
        wf.app { name = "lazy", root = "tt://home" }
        """)
        let result = try WayfinderCLI.run(["open", directory.subpath("app"), "tt://lazy/300000", "--memory-limit", "512", "--time-limit", "60000"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "here\n", "\(result.stderr)")
    }

    @Test func aRouteOfFourThousandPathSegmentsIsRefusedWhenTheAppLoads() throws {
        try directory.write("app/app.lua", """
        local wf = require "wayfinder"
        local P = wf.controller "P"
        function P:render() return { title = "p" } end
        wf.map:from("tt://home", P)
        wf.map:from("tt://h/" .. string.rep("a/", 3999) .. "a", P)
        wf.app { name = "segments", root = "tt://home" }
        """)
        let url = "tt://h/" + Array(repeating: "a", count: 4000).joined(separator: "/")
        let result = try WayfinderCLI.run(["match", directory.subpath("app"), url])
        #expect(result.status == 2, "the app does not load: \(result.stderr)")
        #expect(result.stderr.contains("app.lua:5:") && result.stderr.contains("a pattern has at most 256 path segments"), "\(result.stderr)")
    }
}

import Foundation
import Testing
import Wayfinder

/// `wayfinder run` where users met surprises: state files of other apps, titles, messages.
@Suite("wayfinder run: edges users met")
struct RunSessionEdgeTests {
    static let pages = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:initWithName(name) self.name = name end
        function Page:render() return { title = "Page " .. self.name, links = { { "Next", "tt://page/" .. self.name .. "x" } } } end
        wf.map:from("tt://page/(initWithName:)", Page)
        """

    func app(_ source: String) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", source)
        return directory
    }

    @Test func controlCharactersFromScriptsAreShownEscaped() throws {
        let dir = try app(#"""
            local wf = require "wayfinder"
            local Raw = wf.controller "Raw"
            function Raw:init() print("printed\27[31m red") end
            function Raw:render()
              return { title = "T\27[2J", lines = { "\27]0;TITLE\7", "two\nlines" },
                       links = { { "go\27[1A", "tt://raw" } } }
            end
            wf.map:from("tt://raw", Raw)
            wf.app { root = "tt://raw" }
            """#)
        let result = try WayfinderCLI.run(["run", dir.path, "--no-state"], input: "s\nq\n")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }, "\(result.stdout)")
        #expect(result.stdout.contains(#"T\27[2J"#))
        #expect(result.stdout.contains(#"\27]0;TITLE\7"#))
        #expect(result.stdout.contains(#"two\nlines"#))
        #expect(result.stdout.contains(#"go\27[1A"#))
        #expect(result.stdout.contains(#"printed\27[31m red"#))
    }

    @Test func anotherAppsStateFileIsRefusedAndLeftAsItWas() throws {
        let dir = try app(Self.pages + "\nwf.app { name = \"pages\", root = \"tt://page/a\", persistence = \"all\" }")
        let foreign = #"{"format":"wayfinder.navigation","version":1,"app":"restaurant","saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://page/zzz"}]},"modals":[],"contexts":[]}"#
        try dir.write("other.json", foreign)
        let state = dir.path + "/other.json"
        let (screens, result) = try RunAndOpenTests.screens(["1", "q"], app: dir.path, options: ["--state", state])
        #expect(result.status == 0)
        #expect(screens[0].contains("belongs to the app 'restaurant', not 'pages'"), "\(screens[0])")
        #expect(screens[0].contains("Page a"), "the app starts from its own start")
        #expect(screens[1].contains("Page ax"))
        #expect(try String(contentsOfFile: state, encoding: .utf8) == foreign)
        let open = try WayfinderCLI.run(["open", dir.path, "tt://page/b", "--state", state])
        #expect(open.status == 2)
        #expect(open.stderr.contains("belongs to the app 'restaurant'"))
        #expect(open.stderr.contains("(give another state file, or --no-state)"), "the command line names its options")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == foreign)
    }

    /// Wayfinder always writes the app's name, so a state naming no app (no "app", or null) could
    /// be any app's: refused and left as it was, as another app's is.
    @Test(arguments: [#""#, #""app":null,"#])
    func aStateFileNamingNoAppIsRefusedAndLeftAsItWas(_ appField: String) throws {
        let dir = try app(Self.pages + "\nwf.app { name = \"pages\", root = \"tt://page/a\", persistence = \"all\" }")
        let nameless = #"{"format":"wayfinder.navigation","version":1,"# + appField
            + #""saved_at":"2026-01-01T00:00:00Z","mode":"all","root":{"kind":"stack","entries":[{"url":"tt://page/zzz"}]},"modals":[],"contexts":[]}"#
        try dir.write("nameless.json", nameless)
        let state = dir.path + "/nameless.json"
        let open = try WayfinderCLI.run(["open", dir.path, "tt://page/b", "--state", state])
        #expect(open.status == 2, "\(open.stdout)\(open.stderr)")
        #expect(open.stderr.contains("the navigation state in \(state) names no app, so it may not be 'pages''s; it is left untouched"), "\(open.stderr)")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == nameless)
        let (screens, result) = try RunAndOpenTests.screens(["1", "q"], app: dir.path, options: ["--state", state])
        #expect(result.status == 0)
        #expect(screens[0].contains("names no app"), "\(screens[0])")
        #expect(try String(contentsOfFile: state, encoding: .utf8) == nameless)
    }

    @Test func commandsThatDoNothingSayItAsFailuresAndHelpExplainsEveryCommand() throws {
        let dir = try app(Self.pages + "\nwf.app { root = \"tt://page/a\" }")
        let (screens, _) = try RunAndOpenTests.screens(["b", "d", "h"], app: dir.path)
        #expect(screens[1].contains("! nothing to go back to"))
        #expect(screens[2].contains("! nothing to dismiss"))
        for line in ["  t N      select tab N", "  o URL    open any URL", "  r        reload the app's scripts"] {
            #expect(screens[3].contains(line), "\(screens[3])")
        }
    }

    /// `b` cannot close a modal's only screen; the message says `d` can, and only there.
    @Test func backOnAModalsOnlyScreenPointsToDismiss() throws {
        let dir = try app(Self.pages + "\nwf.map:from(\"tt://sheet/(initWithName:)\", Page, { mode = \"modal\" })\nwf.app { root = \"tt://page/a\" }")
        let (screens, _) = try RunAndOpenTests.screens(["b", "o tt://sheet/s", "b", "1", "b", "b", "d"], app: dir.path)
        #expect(screens[1].contains("! nothing to go back to\n"), "at the root: \(screens[1])")
        #expect(!screens[1].contains("d dismisses"))
        #expect(screens[3].contains("! nothing to go back to in this modal: d dismisses it"), "\(screens[3])")
        #expect(!screens[5].contains("!"), "a second screen in the modal goes back: \(screens[5])")
        #expect(screens[6].contains("! nothing to go back to in this modal: d dismisses it"))
        #expect(screens[7].contains("Page a"))
    }

    @Test func aNewAppOpensWhereItWasLeft() throws {
        let dir = try app(Self.pages + "\nwf.app { root = \"tt://page/a\" }")
        let home = try TemporaryDirectory()
        let (first, _) = try RunAndOpenTests.screens(["1", "1", "q"], app: dir.path, stateHome: home.path)
        #expect(first[2].contains("Page axx"))
        let (second, _) = try RunAndOpenTests.screens(["q"], app: dir.path, stateHome: home.path)
        #expect(second[0].contains("Stack:   Page a > Page ax > Page axx\n"), "restored entries keep their titles:\n\(second[0])")
    }

    @Test func watchOnAnAppThatDoesNotLoadWaitsForAGoodSave() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "local x = = 1")
        let run = try LiveProcess(["run", directory.path, "--watch", "--no-state"])
        #expect(run.waitFor("! cannot load app"))
        #expect(run.text.contains("app.lua:1:"))
        run.send("1")
        #expect(run.waitFor("! the app is not loaded yet"))
        try Data((Self.pages + "\nwf.app { root = \"tt://page/a\" }").utf8).write(to: URL(fileURLWithPath: directory.path + "/app.lua"), options: .atomic)
        #expect(run.waitFor("Page a"))
        run.send("1")
        #expect(run.waitFor("Page ax"))
        #expect(run.finish() == 0)
    }

    @Test func watchOnAnAppThatNeverLoadsEndsWithTheInput() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "error('not today')")
        let result = try WayfinderCLI.run(["run", directory.path, "--watch", "--no-state"], input: "q\n")
        #expect(result.status == 2)
        #expect(result.stdout.contains("! cannot load app"))
        #expect(result.stdout.contains("not today"))
    }

    /// A tab written as a link is, `{ "Title", url }`, is titled as `{ url = ..., title = ... }` is:
    /// in the tab bar and in the tree, made or not.
    @Test func aTabWrittenAsALinkCarriesItsTitle() throws {
        let dir = try app(Self.pages + """

            wf.app { tabs = { { "Home", "tt://page/a" }, { "Basket", "tt://page/b" } } }
            """)
        let (screens, result) = try RunAndOpenTests.screens(["s", "t 2"], app: dir.path, options: ["--no-state"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(screens[0].contains("Tabs:    [1 Home]  2 Basket\n"), "\(screens[0])")
        #expect(screens[1].contains("  *tab 1 (Home): tt://page/a\n   tab 2 (Basket): tt://page/b (not loaded)\n"), "\(screens[1])")
        #expect(screens[2].contains("Tabs:    1 Home  [2 Basket]\n"), "\(screens[2])")
        let open = try WayfinderCLI.run(["open", dir.path, "tt://page/ax"])
        #expect(open.stdout.contains("  *tab 1 (Home): tt://page/a > tt://page/ax\n   tab 2 (Basket): tt://page/b (not loaded)\n"), "\(open.stdout)")
    }

    @Test func tabsHaveFixedTitlesAndTitlesSurviveAReload() throws {
        let dir = try app(Self.pages + """

            wf.app { tabs = { { url = "tt://page/a", title = "Home" }, "tt://page/b", { url = "tt://page/c", title = "Cart" } } }
            """)
        let (screens, _) = try RunAndOpenTests.screens(["1", "r", "t 2"], app: dir.path, options: ["--no-state"])
        #expect(screens[0].contains("Tabs:    [1 Home]  2 tt://page/b  3 Cart\n"), "\(screens[0])")
        #expect(screens[2].contains("reloaded"))
        #expect(screens[2].contains("Stack:   Page a > Page ax\n"), "after a reload:\n\(screens[2])")
        #expect(screens[3].contains("Tabs:    1 Home  [2 Page b]  3 Cart\n"), "\(screens[3])")
    }

    @Test(arguments: [
        (#"{ { url = "tt://page/a", name = "x" } }"#, "app.lua:6: wf.app: tabs[1]: unknown field 'name' (known: url, title)"),
        (#"{ { title = "x" } }"#, "app.lua:6: wf.app: tabs[1].url must be a URL string, got nil"),
        (#"{ { url = "tt://page/a", title = 3 } }"#, "app.lua:6: wf.app: tabs[1]: field 'title' must be a string, got number"),
        ("{ 5 }", #"app.lua:6: wf.app: tabs[1] must be a URL string, { "Title", url } or { url = ..., title = ... }, got number"#),
        (#"{ { "Home" } }"#, #"app.lua:6: wf.app: tabs[1] must be { "Title", url }: two strings"#),
        (#"{ "tt://page/a", { "Home", 3 } }"#, #"app.lua:6: wf.app: tabs[2] must be { "Title", url }: two strings"#),
        (#"{ { "Home", "tt://page/a", "x" } }"#, #"app.lua:6: wf.app: tabs[1] must be { "Title", url }: two strings"#),
        (#"{ { "Home", "not a url" } }"#, "wf.app: 'not a url' is not a URL"),
    ])
    func badTabsNameTheAppsLine(tabs: String, message: String) throws {
        let failure = try loadFailure(Self.pages + "\nwf.app { tabs = \(tabs) }")
        #expect(failure?.contains(message) == true, "\(failure ?? "loaded")")
    }
}

import Foundation
import Testing

/// `scripts/example`, the first thing a new user runs: every step it narrates is checked, so it
/// passes on the restaurant as it is and stops, naming the step, when a screen is not the one it
/// names. It runs the built binary (WAYFINDER), neither installing nor building.
@Suite("scripts/example")
struct ExampleScriptTests {
    static func example(in root: String) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run([], environment: ["WAYFINDER": WayfinderCLI.executable.path],
                             binary: URL(fileURLWithPath: root + "/scripts/example"))
    }

    @Test func everyNarratedStepShowsTheScreenItNames() throws {
        let result = try Self.example(in: WayfinderCLI.repositoryRoot.path)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.hasSuffix("scripts/example: every step showed the screen it names\n"))
        // The order goes once someone signed in, and Our Story shows in the About tab.
        #expect(result.stdout.contains("> 1\n\n== restaurant ==\nTabs:    [1 Breakfast]  2 Lunch  3 Dinner  4 Dessert  5 About  6 Contacts\nStack:   Breakfast\n"))
        #expect(result.stdout.contains("Stack:   About > Our Story\n"))
    }

    /// A copy of the repository's script and restaurant, the app changed by `edit`.
    static func brokenCopy(_ file: String, _ edit: (String) -> String) throws -> TemporaryDirectory {
        let copy = try TemporaryDirectory()
        let root = WayfinderCLI.repositoryRoot.path
        try FileManager.default.createDirectory(atPath: copy.subpath("scripts"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/scripts/example", toPath: copy.subpath("scripts/example"))
        try FileManager.default.createDirectory(atPath: copy.subpath("lua/examples"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: root + "/lua/examples/restaurant", toPath: copy.subpath("lua/examples/restaurant"))
        let path = copy.subpath("lua/examples/restaurant/" + file)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let edited = edit(text)
        #expect(edited != text, "the edit changed \(file)")
        try copy.write("lua/examples/restaurant/" + file, edited)
        return copy
    }

    @Test(arguments: [
        // Without the guard the order goes at once: no "Who's ordering?".
        ("app.lua", ", guard = delegate.someone_ordering", "", "expected the line 'Modal 2: Who's ordering?' on the screen of '1': 'Who's ordering?' first"),
        // Signing in leaves the sheet open: the order never goes.
        ("delegate.lua", "  nav:dismiss()\n  return { userId", "  return { userId", "expected no 'Modal' on the screen of '1': Alice signed in and the order sent"),
        // The About menu's first link is not Our Story.
        ("data/menus.lua", "        { \"Our Story\", \"tt://about/story\" },\n", "", "expected the line 'Stack:   About > Our Story' on the screen of '1': Our Story"),
    ])
    func aScreenOtherThanTheNamedOneStopsTheScript(file: String, from: String, to: String, said: String) throws {
        let copy = try Self.brokenCopy(file) { $0.replacingOccurrences(of: from, with: to) }
        let result = try Self.example(in: copy.path)
        #expect(result.status == 1)
        #expect(result.stderr.contains("scripts/example: ") && result.stderr.contains(said), "\(result.stderr)")
        #expect(!result.stdout.contains("every step showed"))
    }
}

import Foundation
import Testing

/// Moved routes as the tools that explain routing show them: `match` (with `--explain`), `routes`
/// and its snapshots, and a move across schemes opening from a link.
@Suite("moved routes in the tools")
struct MovedRouteToolsTests {
    static let app = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:init(route) self.url = route.url end
        wf.map:from("tt://home", Page)
        wf.map:from("tt://item/(id:int)", Page, { external = true })
        wf.map:from("tt://product/(id:int)", Page)
        wf.map:moved("https://example.com/items/(id)", "tt://item/(id)")
        wf.map:moved("tt://dish/(id)", "tt://product/(id)")
        wf.app { root = "tt://home", persistence = "none" }
        """

    static func directory(_ source: String = app) throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", source)
        return directory
    }

    @Test func matchShowsTheRewriteAndTheRouteItLeadsTo() throws {
        let directory = try Self.directory()
        let result = try WayfinderCLI.run(["match", directory.path, "tt://dish/7", "--explain"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == [
            "tt://dish/7",
            "  moved    tt://dish/7 -> tt://product/7  (moved 'tt://dish/(id)' -> 'tt://product/(id)')",
            "  pattern  tt://product/(id:int)",
            "  mode     create",
            "  target   class Page",
            "  method   init  (selector id:)",
            "  params   id = 7",
            "  won     tt://product/(id:int)",
        ])
    }

    @Test func matchJSONCarriesTheHops() throws {
        let directory = try Self.directory()
        let result = try WayfinderCLI.run(["match", directory.path, "https://example.com/items/3", "--json", "--explain"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["url"] as? String == "https://example.com/items/3")
        #expect(object["pattern"] as? String == "tt://item/(id:int)")
        #expect(object["moved"] as? [[String: String]] == [[
            "from": "https://example.com/items/3", "to": "tt://item/3",
            "old": "https://example.com/items/(id)", "new": "tt://item/(id)",
        ]])
        let explain = try #require(object["explain"] as? [[String: Any]])
        #expect(explain.first?["pattern"] as? String == "tt://item/(id:int)")
    }

    @Test func aMoveThatLeadsNowhereIsNoMatchWithTheReason() throws {
        let directory = try Self.directory(Self.app.replacingOccurrences(of: "wf.map:from(\"tt://product/(id:int)\", Page)\n", with: ""))
        let result = try WayfinderCLI.run(["match", directory.path, "tt://dish/7"])
        #expect(result.status == 1)
        #expect(result.stdout == "tt://dish/7\n  no match: no route matches; it moved to 'tt://product/7', which no route matches\n")
    }

    @Test func aMoveAcrossSchemesOpensFromALinkWithoutAStarRoute() throws {
        let directory = try Self.directory()
        let linked = try WayfinderCLI.run(["open", directory.path, "--link", "https://example.com/items/3"])
        #expect(linked.status == 0, "\(linked.stderr)")
        #expect(linked.stdout == "stack: tt://home > tt://item/3\nvisible: tt://item/3\n")
        let opened = try WayfinderCLI.run(["open", directory.path, "https://example.com/items/4"])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.stdout == "stack: tt://home > tt://item/4\nvisible: tt://item/4\n")
        // A URL of the same site that no move takes is still handed outside.
        let other = try WayfinderCLI.run(["match", directory.path, "https://example.com/about"])
        #expect(other.stdout.contains("external: no route uses the scheme 'https'"), "\(other.stdout)")
        // A link the move takes to a route that is not external is refused at the door.
        let refused = try WayfinderCLI.run(["open", directory.path, "--link", "tt://dish/5"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("its route 'tt://product/(id:int)' is not marked external"), "\(refused.stderr)")
    }

    @Test func routesListTheMovesAndASnapshotCatchesOneDeleted() throws {
        let directory = try Self.directory()
        let listed = try WayfinderCLI.run(["routes", directory.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        #expect(listed.lines.suffix(3).map { $0.split(separator: " ", omittingEmptySubsequences: true) } == [
            ["MOVED", "FROM", "TO"], ["https://example.com/items/(id)", "tt://item/(id)"], ["tt://dish/(id)", "tt://product/(id)"],
        ])
        let json = try WayfinderCLI.run(["routes", directory.path, "--json"])
        #expect(json.lines.suffix(2) == [
            #"{"pattern":"https://example.com/items/(id)","moved_to":"tt://item/(id)"}"#,
            #"{"pattern":"tt://dish/(id)","moved_to":"tt://product/(id)"}"#,
        ])
        let file = directory.path + "/routes.snapshot"
        #expect(try WayfinderCLI.run(["routes", directory.path, "--write", file]).status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasSuffix("https://example.com/items/(id)  moved=tt://item/(id)\ntt://dish/(id)  moved=tt://product/(id)\n"))
        #expect(try WayfinderCLI.run(["routes", directory.path, "--check", file]).status == 0)
        try directory.write("app.lua", Self.app.replacingOccurrences(of: "wf.map:moved(\"tt://dish/(id)\", \"tt://product/(id)\")\n", with: ""))
        let checked = try WayfinderCLI.run(["routes", directory.path, "--check", file])
        #expect(checked.status == 1)
        #expect(checked.lines.contains("- #5 tt://dish/(id)  moved=tt://product/(id)"), "\(checked.stdout)")
        #expect(!checked.stdout.contains("precedence changed"))
    }
}

import Foundation
import Testing
import Wayfinder

/// `wayfinder crawl` through the real binary: the example app's whole flow, an app that is broken
/// on purpose, the graph exports, and the bounds.
@Suite("wayfinder crawl")
struct CrawlTests {
    static let brokenFlow = WayfinderCLI.repositoryRoot.appendingPathComponent("Tests/Fixtures/apps/broken-flow").path

    func report(_ result: WayfinderCLI.Result) throws -> [String: Value] {
        guard case .map(let fields) = try JSON.decode(result.stdout) else {
            Issue.record("not a JSON object: \(result.stdout)")
            return [:]
        }
        return Dictionary(fields.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    func list(_ value: Value?) -> [Value] {
        if case .array(let items)? = value { return items }
        return []
    }

    @Test func theRestaurantReachesEveryRouteWithNoDeadLink() throws {
        let result = try WayfinderCLI.run(["crawl", RunAndOpenTests.restaurant, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let fields = try report(result)
        #expect(list(fields["dead"]).isEmpty)
        #expect(list(fields["unreached"]).isEmpty)
        let screens = list(fields["screens"]).compactMap { screen -> String? in
            if case .map(let fields) = screen { return fields["url"]?.stringValue }
            return nil
        }
        for url in ["tt://menu/1", "tt://contacts", "tt://order/confirm", "tt://signin", "tt://food/pie/nutrition", "http://www.melsdrive-in.com"] {
            #expect(screens.contains(url), "\(url) not reached")
        }
        let external = list(fields["external"]).compactMap { link -> String? in
            if case .map(let fields) = link { return fields["url"]?.stringValue }
            return nil
        }
        #expect(external.contains("tel:5555555"))
    }

    @Test func aBrokenAppExitsOneNamingEachDeadLinkAndTheUnreachedRoute() throws {
        let result = try WayfinderCLI.run(["crawl", Self.brokenFlow])
        #expect(result.status == 1)
        let text = result.stdout
        #expect(text.contains("tt://setings from tt://home (\"Typo\"): no route matches"))
        #expect(text.contains("tt://crash from tt://home (\"Crash\"): cannot open 'tt://crash': app.lua:25: the kitchen is closed"))
        #expect(text.contains("tt://loop/a from tt://home (\"Round and round\"): redirect loop cut after 8 hops"))
        #expect(text.contains("tt://blank from tt://home (\"Blank\"): app.lua:28: render() of Blank returned a string"))
        #expect(text.contains("routes no link reached (1):\n  tt://orphan"))
        #expect(text.contains("tel:5550100 from tt://home"))
        #expect(text.contains("screens reached (2):"))
    }

    @Test func anAppWhoseOnlyFaultIsAnUnreachedRouteExitsOne() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:render() return { title = "Page" } end
            wf.map:from("tt://home", Page)
            wf.map:from("tt://hidden", Page)
            wf.app { root = "tt://home", persistence = "none" }
            """)
        let result = try WayfinderCLI.run(["crawl", directory.path, "--json"])
        #expect(result.status == 1)
        let fields = try report(result)
        #expect(list(fields["unreached"]) == ["tt://hidden"])
        #expect(list(fields["dead"]).isEmpty)
        #expect(try WayfinderCLI.run(["crawl", directory.path, "--from", "tt://hidden"]).status == 0)
    }

    @Test func aTypeFunctionsErrorAndAMalformedLinkAreDeadWithTheirReasons() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:render() return { title = "Home", links = { { "Typed", "tt://item/7" }, { "Bad", "tt://item/%zz" } } } end
            wf.map:type("odd", function(text) error("odd broke") end)
            wf.map:from("tt://home", Page)
            wf.map:from("tt://item/(n:odd)", Page)
            wf.app { root = "tt://home", persistence = "none" }
            """)
        let result = try WayfinderCLI.run(["crawl", directory.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("tt://item/7 from tt://home (\"Typed\"): app.lua:4: odd broke"), "\(result.stdout)")
        #expect(result.stdout.contains("tt://item/%zz from tt://home (\"Bad\"): "))
    }

    @Test func theDotGraphRendersWithGraphviz() throws {
        let graph = try WayfinderCLI.run(["crawl", RunAndOpenTests.restaurant, "--dot"])
        #expect(graph.status == 0)
        #expect(graph.stdout.contains("subgraph cluster_tab6"))
        #expect(graph.stdout.contains("label=\"tab 6 (Contacts): tt://contacts\";"), "tabs are named by their titles")
        #expect(graph.stdout.contains("style=dashed"))
        let directory = try TemporaryDirectory()
        try directory.write("flow.dot", graph.stdout)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["dot", "-Tsvg", directory.path + "/flow.dot", "-o", directory.path + "/flow.svg"]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let svg = try String(contentsOfFile: directory.path + "/flow.svg", encoding: .utf8)
        #expect(svg.contains("<svg"))
        #expect(svg.contains("tt://order/confirm"))
    }

    @Test func theMermaidGraphMarksDeadLinksAndModalEdges() throws {
        let broken = try WayfinderCLI.run(["crawl", Self.brokenFlow, "--mermaid"])
        #expect(broken.status == 1)
        #expect(broken.stdout.hasPrefix("flowchart LR\n"))
        #expect(broken.stdout.contains("{{\"tt://setings\"}}"))
        // Dead links are painted red, as in the Graphviz graph.
        let lines = broken.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let deadID = try #require(lines.first { $0.hasSuffix("{{\"tt://setings\"}}") }?.split(separator: "{").first.map(String.init))
        #expect(lines.contains("classDef dead stroke:#d00,color:#d00"))
        let classed = try #require(lines.first { $0.hasPrefix("class ") && $0.hasSuffix(" dead") })
        #expect(classed.dropFirst("class ".count).dropLast(" dead".count).split(separator: ",").map(String.init).contains(deadID))
        let restaurant = try WayfinderCLI.run(["crawl", RunAndOpenTests.restaurant, "--mermaid"])
        #expect(restaurant.stdout.contains("-.->"))
        #expect(restaurant.stdout.contains("subgraph tab6 [\"tab 6 (Contacts): tt://contacts\"]"))
        #expect(restaurant.stdout.contains("tt://order?waitress=()#35;(orderAction:)"))
    }

    @Test func aRouteAWebLinkOpensCountsAsReached() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init() end
            function Page:render() return { title = "page", links = {} } end
            wf.map:from("tt://home", Page)
            wf.map:from("tt://item/(id:int)", Page, { external = true })
            wf.map:from("tt://secret/(id:int)", Page)
            wf.app { root = "tt://home", persistence = "none", link_prefixes = { ["https://shop.example.com/"] = "tt://" } }
            """)
        let result = try WayfinderCLI.run(["crawl", directory.path, "--json"])
        let fields = try report(result)
        // The item opens from the web; the secret route, not external, is reached by nothing.
        #expect(list(fields["unreached"]) == [.string("tt://secret/(id:int)")])
    }

    @Test func anActionThatShowsAScreenOfTheLinkingURLIsDrawn() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local List = wf.controller "List"
            function List:init() end
            function List:render() return { title = "list", links = { { "Again", "tt://again" }, { "Stay", "tt://stay" } } } end
            wf.map:from("tt://list", List)
            wf.map:from("tt://again", function() assert(wf.navigator:open("tt://list")) end, { mode = "none" })
            wf.map:from("tt://stay", function() end, { mode = "none" })
            wf.app { root = "tt://list", persistence = "none" }
            """)
        let result = try WayfinderCLI.run(["crawl", directory.path, "--mermaid"])
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        func id(_ label: String) -> String? { lines.first { $0.contains("\"\(label)\"") && !$0.contains("-->") }?.prefix { $0 != "[" && $0 != "(" }.description }
        let list = try #require(id("tt://list")), again = try #require(id("tt://again")), stay = try #require(id("tt://stay"))
        #expect(lines.contains("\(again) --> \(list)"), "\(result.stdout)")
        #expect(!lines.contains("\(stay) --> \(list)"), "an action that showed nothing new leads nowhere")
    }

    @Test func queryVariantsAreFollowedOncePerShapeUnlessAll() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local List = wf.controller "List"
            function List:initWithSort(sort) self.sort = sort end
            function List:render()
              return { title = "by " .. tostring(self.sort),
                       links = { { "a", "tt://list?sort=a" }, { "b", "tt://list?sort=b" }, { "c", "tt://list?sort=c" } } }
            end
            wf.map:from("tt://list?sort=(initWithSort:)", List)
            wf.app { root = "tt://list?sort=a", persistence = "none" }
            """)
        let once = try report(WayfinderCLI.run(["crawl", directory.path, "--json"]))
        #expect(list(once["screens"]).count == 1)
        let all = try report(WayfinderCLI.run(["crawl", directory.path, "--json", "--all"]))
        #expect(list(all["screens"]).count == 3)
    }

    @Test func maxBoundsAnEndlessChainOfLinks() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:initWithName(name) self.name = name end
            function Page:render() return { title = self.name, links = { { "Next", "tt://page/" .. self.name .. "x" } } } end
            wf.map:from("tt://page/(initWithName:)", Page)
            wf.app { root = "tt://page/a", persistence = "none" }
            """)
        let result = try WayfinderCLI.run(["crawl", directory.path, "--json", "--max", "5"])
        #expect(result.status == 0)
        let fields = try report(result)
        #expect(list(fields["screens"]).count == 5)
        #expect(fields["truncated"] == true)
        #expect(result.stderr.contains("stopped at --max 5 screens"))
    }

    @Test func badCallsExitTwo() throws {
        #expect(try WayfinderCLI.run(["crawl", RunAndOpenTests.restaurant, "--max", "0"]).status == 2)
        #expect(try WayfinderCLI.run(["crawl", RunAndOpenTests.restaurant, "--dot", "--json"]).status == 2)
        let missing = try WayfinderCLI.run(["crawl", "/nonexistent/app"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file or directory"))
    }
}

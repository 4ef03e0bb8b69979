import ArgumentParser
import Foundation
import Wayfinder
import WayfinderLua
import WayfinderTesting

/// `wayfinder crawl APP`: follows every link of every screen from the launch tree and reports the
/// screens reached, dead links, routes nothing reached and external links; or writes the flow
/// graph. Exit status 1 when a link is dead or a route unreached, 2 when the app cannot be loaded.
struct CrawlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crawl",
        abstract: "Follow every link of every screen; report dead links and routes no link reaches.",
        discussion: """
            Starts from the launch tree (every tab) and the --from URLs, breadth first. Each link \
            is opened once, in a fresh app led to the linking screen, so no screen's actions \
            change another's. Links that differ only in their query values are followed once \
            (--all follows every distinct URL). --dot and --mermaid write the graph of routes \
            and links instead of the report.

            Example:
              wayfinder crawl lua/examples/restaurant --dot | dot -Tsvg > flow.svg
            """
    )

    @Argument(help: "The app: a directory with app.lua, or a .lua file.")
    var app: String

    @Flag(help: "Print the report as one JSON object.")
    var json = false

    @Flag(help: "Print the flow graph in Graphviz's language (dot -Tsvg draws it).")
    var dot = false

    @Flag(help: "Print the flow graph as a Mermaid flowchart.")
    var mermaid = false

    @Flag(help: "Follow every distinct URL, not once per route shape.")
    var all = false

    @Option(help: "Visit at most this many screens.")
    var max: Int = 1000

    @Option(name: .customLong("from"), parsing: .upToNextOption, help: "More URLs to start from.")
    var from: [String] = []

    @OptionGroup var host: HostOptions

    func validate() throws {
        guard max >= 1 else { throw ValidationError("--max must be at least 1") }
        guard [json, dot, mermaid].filter({ $0 }).count <= 1 else { throw ValidationError("choose one of --json, --dot and --mermaid") }
    }

    func run() throws {
        _ = try host.load(app, printSink: { _ in })
        let crawl: FlowCrawl
        do {
            crawl = try FlowCrawl.run(load: { try host.embed(app, printSink: { _ in }) },
                                      from: from, allURLs: all, max: max)
        } catch {
            Terminal.error("cannot crawl '\(app)': \(error)")
            throw ExitCode(2)
        }
        if dot {
            Terminal.print(FlowGraph(crawl).dot)
        } else if mermaid {
            Terminal.print(FlowGraph(crawl).mermaid)
        } else if json {
            Terminal.print((try? JSON.encode(Self.json(crawl))) ?? "{}")
        } else {
            for line in Self.text(crawl) { Terminal.print(line) }
        }
        if crawl.truncated { Terminal.warning("stopped at --max \(max) screens; some links were not followed") }
        if crawl.failed { throw ExitCode(1) }
    }

    static func text(_ crawl: FlowCrawl) -> [String] {
        var out = ["screens reached (\(crawl.screens.count)):"]
        out += TextTable.render(header: ["URL", "ROUTE", "TITLE"],
                                rows: crawl.screens.map { [$0.url, $0.route, $0.title ?? "-"] })
            .split(separator: "\n").map { "  " + $0 }
        out.append("dead links (\(crawl.dead.count)):")
        out += crawl.dead.map { "  \($0.url) from \($0.from)\($0.title.isEmpty ? "" : " (\"\($0.title)\")"): \($0.reason)" }
        out.append("routes no link reached (\(crawl.unreached.count)):")
        out += crawl.unreached.map { "  " + $0 }
        out.append("external links (\(crawl.external.count)):")
        out += crawl.external.map { "  \($0.url) from \($0.from)" }
        return out
    }

    static func json(_ crawl: FlowCrawl) -> Value {
        [
            "screens": .array(crawl.screens.map { ["url": .string($0.url), "route": .string($0.route), "title": $0.title.map(Value.string) ?? .null,
                                                   "tab": $0.tab.map { .int(TabNumber.number(of: $0)) } ?? .null, "presented": .bool($0.presented)] }),
            "links": .array(crawl.links.map { ["from": .string($0.from), "title": .string($0.title), "url": .string($0.url),
                                               "route": $0.route.map(Value.string) ?? .null, "mode": $0.mode.map { .string($0.rawValue) } ?? .null] }),
            "dead": .array(crawl.dead.map { ["from": .string($0.from), "title": .string($0.title), "url": .string($0.url), "reason": .string($0.reason)] }),
            "unreached": .array(crawl.unreached.map(Value.string)),
            "external": .array(crawl.external.map { ["from": .string($0.from), "title": .string($0.title), "url": .string($0.url)] }),
            "truncated": .bool(crawl.truncated),
        ]
    }
}

import Foundation
import Testing
import TestSupport

/// Random graphs of shared tables and strings, of random depths, handed through every way a
/// value crosses from Lua into the host (a context, an action's state and query, a tab list, a
/// persisted state, a screen, test names), each in the built executable with an 8 MiB limit: a
/// value whose copy is small crosses, one whose copy is larger than the limit (counted as the
/// reader counts, every shared part at every place it occurs) stops with the limit's error at the
/// script's line, and whatever the value, the process stays within twice the limit beyond a
/// trivial app's memory, and within twice the budget for each call in CPU time.
@Suite("Random shared values cross every entry point within the limits")
struct CrossingPropertyTests {
    static let memoryLimit = 8 << 20
    /// A copy at most this large crosses wherever it goes.
    static let surelyFits = 256 << 10
    /// What one screen may hand over (`CrossingCap.screen`).
    static let screenCap = 1 << 20
    static let longestName = 4096

    /// A DAG of Lua values: strings, and tables holding earlier nodes (so parts are shared and
    /// nothing holds itself), built by the statements `source` gives.
    struct Graph {
        enum Node {
            case string(length: Int)
            case array([Int])
            case map([Int])
        }
        var nodes: [Node] = []

        init(using generator: inout SeededGenerator) {
            let count = Int.random(in: 2...80, using: &generator)
            var strings = 0
            for i in 0..<count {
                // Strings stay few and short, so building the graph fits in the Lua state.
                if i == 0 || (strings < 12 && Int.random(in: 0..<3, using: &generator) == 0) {
                    strings += 1
                    nodes.append(.string(length: Int.random(in: 0...(1 << Int.random(in: 0...16, using: &generator)), using: &generator)))
                } else {
                    // Half the children are among the last few nodes, so long chains of tables
                    // that share what is below them (copies that double at each level) come up.
                    var children = (0..<Int.random(in: 1...4, using: &generator)).map { _ in
                        Bool.random(using: &generator) ? i - Int.random(in: 1...min(i, 3), using: &generator) : Int.random(in: 0..<i, using: &generator)
                    }
                    // Now and then a level that holds the one below twice.
                    if Int.random(in: 0..<3, using: &generator) == 0 { children = [i - 1, i - 1] }
                    nodes.append(Bool.random(using: &generator) ? .array(children) : .map(children))
                }
            }
        }

        var stringNodes: [Int] { nodes.indices.filter { if case .string = nodes[$0] { true } else { false } } }
        /// The node whose copy is largest: the value handed over.
        var root: Int { nodes.indices.max { copySize($0) < copySize($1) }! }

        /// Lua statements that build the nodes as `n[1]`, `n[2]`, ...
        var source: String {
            nodes.enumerated().map { index, node in
                switch node {
                case .string(let length): return "n[\(index + 1)] = string.rep(\"\(Character(UnicodeScalar(97 + index % 26)!))\", \(length))"
                case .array(let children): return "n[\(index + 1)] = { " + children.map { "n[\($0 + 1)]" }.joined(separator: ", ") + " }"
                case .map(let children):
                    return "n[\(index + 1)] = { " + children.enumerated().map { "k\($0.offset) = n[\($0.element + 1)]" }.joined(separator: ", ") + " }"
                }
            }.joined(separator: "\n  ")
        }

        /// What copying node `index` costs as the reader counts it: every string's bytes and 32
        /// for each value and key, each shared part at every place it occurs (saturating).
        func copySize(_ index: Int) -> Int {
            var memo = [Int: Int]()
            func size(_ i: Int) -> Int {
                if let known = memo[i] { return known }
                let result: Int
                switch nodes[i] {
                case .string(let length): result = 64 + length
                case .array(let children): result = children.reduce(32) { Self.add($0, size($1)) }
                case .map(let children): result = children.enumerated().reduce(32) { Self.add($0, Self.add(32 + "k\($1.offset)".utf8.count, size($1.element))) }
                }
                memo[i] = result
                return result
            }
            return size(index)
        }

        static func add(_ a: Int, _ b: Int) -> Int { a > Int.max - b ? Int.max : a + b }
    }

    static func app(_ graph: Graph, lines: [Int], links: [(Int, Int)], tab: Int, tabs: Int) -> String {
        """
        local wf = require "wayfinder"

        local function graph()
          local n = {}
          \(graph.source)
          return n
        end

        local Page = wf.controller "Page"
        function Page:render() return { title = "Page" } end

        local Saved = wf.controller("Saved", Page)
        function Saved:persist(state) state.g = graph()[\(graph.root + 1)] end

        local Render = wf.controller("Render", Page)
        function Render:render()
          local n = graph()
          return { lines = { \(lines.map { "n[\($0 + 1)]" }.joined(separator: ", ")) },
                   links = { \(links.map { "{ n[\($0.0 + 1)], n[\($0.1 + 1)] }" }.joined(separator: ", ")) } }
        end

        wf.map:from("tt://page", Page)
        wf.map:from("tt://saved", Saved)
        wf.map:from("tt://render", Render)
        wf.map:from("tt://ctx", function() wf.context.app:set("g", graph()[\(graph.root + 1)]) end, { mode = "none" })
        wf.map:from("tt://state", function() assert(wf.navigator:open { url = "tt://page", state = graph()[\(graph.root + 1)] }) end, { mode = "none" })
        wf.map:from("tt://query", function() assert(wf.navigator:open { url = "tt://page", query = { g = graph()[\(graph.root + 1)] } }) end, { mode = "none" })
        local function tabs()
          local url, list = "tt://page?q=" .. graph()[\(tab + 1)], {}
          for i = 1, \(tabs) do list[i] = url end
          return list
        end
        wf.map:from("tt://tabs", function() wf.navigator:tabs(tabs()) end, { mode = "none" })

        wf.app { name = "graph", root = "tt://page", persistence = "all" }
        """
    }

    @Test(arguments: 1...12)
    func aRandomSharedValueCrossesEveryEntryPointWithinTheLimits(seed: Int) throws {
        var generator = SeededGenerator(seed: UInt64(seed))
        let graph = Graph(using: &generator)
        let strings = graph.stringNodes
        let lines = (0..<Int.random(in: 0...3000, using: &generator)).map { _ in strings.randomElement(using: &generator)! }
        let links = (0..<Int.random(in: 0...500, using: &generator)).map { _ in
            (strings.randomElement(using: &generator)!, strings.randomElement(using: &generator)!)
        }
        let names = (0..<Int.random(in: 1...200, using: &generator)).map { _ in strings.randomElement(using: &generator)! }
        // A tab list of one URL many times over (a list of strings only).
        let tab = strings.randomElement(using: &generator)!
        let tabs = Int.random(in: 1...300, using: &generator)

        let directory = try TemporaryDirectory()
        let source = Self.app(graph, lines: lines, links: links, tab: tab, tabs: tabs)
        try directory.write("app/app.lua", source)
        try directory.write("trivial/app.lua", """
            local wf = require "wayfinder"
            wf.map:from("tt://page", function() return {} end)
            wf.app { name = "trivial", root = "tt://page" }
            """)
        try directory.write("specs/names_spec.lua", """
            local n = {}
            \(graph.source)
            describe("g", function()
              \(names.map { "it(n[\($0 + 1)], function() end)" }.joined(separator: "\n  "))
            end)
            """)
        let limit = ["--memory-limit", "\(Self.memoryLimit >> 20)"]
        let baseline = try MeasuredRun.run(["open", directory.subpath("trivial"), "tt://page"] + limit)
        #expect(baseline.status == 0, "\(baseline.stderr)")
        func expectBounded(_ run: MeasuredRun, calls: Int, _ what: String) {
            let memoryBound = baseline.peakBytes + 2 * Self.memoryLimit
            #expect(run.peakBytes <= memoryBound, "\(what): peak \(run.peakBytes >> 20) MiB over \(memoryBound >> 20) MiB")
            let timeBound = baseline.cpuSeconds + 2 * Double(calls)
            #expect(run.cpuSeconds <= timeBound, "\(what): CPU \(run.cpuSeconds) s over \(timeBound) s")
        }
        let reached = "memory limit of \(Self.memoryLimit >> 20) MiB reached"
        let size = graph.copySize(graph.root)
        let sizes = ["tt://ctx": size, "tt://state": size, "tt://query": size,
                     "tt://tabs": 32 + tabs * (graph.copySize(tab) + "tt://page?q=".utf8.count)]

        // The bindings: the value crosses, or the open fails at the line that handed it over.
        for url in ["tt://ctx", "tt://state", "tt://query", "tt://tabs"] {
            let size = sizes[url]!
            let run = try MeasuredRun.run(["open", directory.subpath("app"), url] + limit)
            let line = source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("\"\(url)\"") }! + 1
            let failed = run.stderr.contains("cannot open '\(url)': app.lua:\(line): ") && run.stderr.contains(reached)
            if size <= Self.surelyFits { #expect(run.status == 0, "\(url), \(size) bytes: \(run.stderr)") }
            if size > Self.memoryLimit { #expect(failed, "\(url), \(size) bytes: \(run.stderr)") }
            #expect(run.status == 0 || failed, "\(url): \(run.stderr)")
            expectBounded(run, calls: 3, url)
        }

        // A persisted state: saved, or the entry is saved without it.
        let state = directory.subpath("state.json")
        let persisted = try MeasuredRun.run(["open", directory.subpath("app"), "tt://saved", "--state", state] + limit)
        #expect(persisted.status == 0, "\(persisted.stderr)")
        let leftOut = persisted.stderr.contains("tt://saved: persist: ") && persisted.stderr.contains(reached)
        if size <= Self.surelyFits { #expect(!leftOut, "\(size) bytes: \(persisted.stderr)") }
        if size > Self.memoryLimit { #expect(leftOut, "\(size) bytes: \(persisted.stderr)") }
        expectBounded(persisted, calls: 6, "persist")

        // A screen in `wayfinder run`: shown, or refused at the screen's cap (or the limit).
        let stringSize = { (i: Int) in graph.copySize(i) }
        let screen = [32, 32 + 5, 32 + 5].reduce(0, +) + lines.reduce(32) { $0 + stringSize($1) }
            + links.reduce(32) { $0 + 32 + stringSize($1.0) + stringSize($1.1) }
        let rendered = try MeasuredRun.run(["run", directory.subpath("app"), "--no-state"] + limit, input: "o tt://render\nq\n")
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let refused = rendered.stdout.contains("render() of Render: ")
            && (rendered.stdout.contains("more than 1 MiB of text (a screen's cap)") || rendered.stdout.contains(reached))
        if screen <= Self.surelyFits { #expect(!rendered.stdout.contains("render() of Render"), "\(screen) bytes") }
        if screen > Self.screenCap { #expect(refused, "\(screen) bytes: \(rendered.stdout.suffix(1000))") }
        expectBounded(rendered, calls: 6, "render")

        // Test names, in TAP: run, or refused at the line that names one too long.
        let tap = try MeasuredRun.run(["test", directory.subpath("specs/names_spec.lua"), "--tap"] + limit)
        let longest = names.map { 2 + stringSize($0) - 64 }.max()!
        if longest > Self.longestName {
            #expect(tap.stdout.contains("names_spec.lua:") && tap.stdout.contains("it: the full name is"), "\(tap.stdout.prefix(1000))")
        } else {
            #expect(tap.status == 0 && tap.stdout.contains("1..\(names.count)"), "\(tap.stdout.prefix(1000))")
        }
        #expect(tap.stdout.utf8.count <= names.count * 2 * Self.longestName + (64 << 10))
        expectBounded(tap, calls: 4 + names.count, "names")
    }
}

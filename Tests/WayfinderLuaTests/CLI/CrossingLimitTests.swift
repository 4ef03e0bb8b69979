import Foundation
import Testing

/// Values a script hands the host cross through one reader that charges each copy before making
/// it: a table or string the value shares is copied, and charged, at every place it occurs. A
/// value small in Lua whose copy would be gigabytes (a table of 24 levels each holding the one
/// below twice, one long string repeated) stops at the memory limit, or at the cap of output that
/// goes on, with an error at the script's line, and the process stays within twice the limit
/// beyond what a trivial app takes. Each case runs the built executable with an 8 MiB limit.
@Suite("Values cross into the host charged as they are copied")
struct CrossingLimitTests {
    static let memoryLimitMiB = 8
    static let timeBudgetSeconds = 1.0

    static let app = """
        local wf = require "wayfinder"

        -- 24 tables, each holding the one below twice: 2^24 paths to the leaf.
        local function dag(levels)
          local t = { leaf = true }
          for _ = 1, levels do t = { a = t, b = t } end
          return t
        end
        local mib = string.rep("x", 1 << 20)

        local Page = wf.controller "Page"
        function Page:render() return { title = "Page" } end

        local Saved = wf.controller("Saved", Page)
        function Saved:persist(state) state.big = dag(24) end

        local Lines = wf.controller("Lines", Page)
        function Lines:render()
          local lines = {}
          for i = 1, 1000 do lines[i] = mib end
          return { title = "Lines", lines = lines }
        end

        local Links = wf.controller("Links", Page)
        function Links:render()
          local links = {}
          for i = 1, 200 do links[i] = { mib, mib } end
          return { title = "Links", links = links }
        end

        wf.map:from("tt://page", Page)
        wf.map:from("tt://saved", Saved)
        wf.map:from("tt://lines", Lines)
        wf.map:from("tt://links", Links)
        wf.map:from("tt://ctx", function() wf.context.app:set("big", dag(24)) end, { mode = "none" })
        wf.map:from("tt://state", function() assert(wf.navigator:open { url = "tt://page", state = dag(24) }) end, { mode = "none" })
        wf.map:from("tt://query", function() assert(wf.navigator:open { url = "tt://page", query = { q = dag(24) } }) end, { mode = "none" })
        wf.map:from("tt://tabs", function() wf.navigator:tabs { "tt://page", extra = dag(24) } end, { mode = "none" })

        wf.app { name = "crossing", root = "tt://page", persistence = "all" }
        """

    static let namesSpec = """
        local mib = string.rep("x", 1 << 20)
        describe("names", function()
          for _ = 1, 200 do it(mib, function() end) end
        end)
        """

    /// The lines of `app` above that hand the host each value.
    static func line(of text: String) -> Int {
        app.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }! + 1
    }

    static let messagesSpec = """
        local mib = string.rep("m", 1 << 20)
        describe("messages", function()
          for i = 1, 200 do it("fails " .. i, function() error(mib, 0) end) end
        end)
        """

    let directory: TemporaryDirectory
    /// A trivial app's run: the host's own memory and time, which the limits come on top of.
    let baseline: MeasuredRun

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("app/app.lua", Self.app)
        try directory.write("specs/names_spec.lua", Self.namesSpec)
        try directory.write("specs/messages_spec.lua", Self.messagesSpec)
        try directory.write("trivial/app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:render() return { title = "Page" } end
            wf.map:from("tt://page", Page)
            wf.app { name = "trivial", root = "tt://page" }
            """)
        baseline = try MeasuredRun.run(["open", directory.subpath("trivial"), "tt://page", "--memory-limit", "\(Self.memoryLimitMiB)"])
        #expect(baseline.status == 0, "\(baseline.stderr)")
    }

    /// The run stayed within twice the memory limit beyond the baseline, and within twice the
    /// time budget for each call it made into Lua (CPU time, so the machine's load does not count).
    func expectBounded(_ run: MeasuredRun, calls: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        let memoryBound = baseline.peakBytes + 2 * (Self.memoryLimitMiB << 20)
        #expect(run.peakBytes <= memoryBound, "peak \(run.peakBytes >> 20) MiB over \(memoryBound >> 20) MiB", sourceLocation: sourceLocation)
        let timeBound = baseline.cpuSeconds + 2 * Self.timeBudgetSeconds * Double(calls)
        #expect(run.cpuSeconds <= timeBound, "CPU \(run.cpuSeconds) s over \(timeBound) s", sourceLocation: sourceLocation)
    }

    func open(_ urls: [String], state: String? = nil) throws -> MeasuredRun {
        try MeasuredRun.run(["open", directory.subpath("app")] + urls + (state.map { ["--state", $0] } ?? [])
            + ["--memory-limit", "\(Self.memoryLimitMiB)"])
    }

    @Test(arguments: [("tt://ctx", "wf.context.app:set"), ("tt://state", "state = dag(24)"), ("tt://query", "query = { q = dag(24) }"),
                      ("tt://tabs", "wf.navigator:tabs")])
    func aSharedTableHandedToABindingStopsAtTheLimit(url: String, call: String) throws {
        let run = try open([url, "tt://page"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot open '\(url)': app.lua:\(Self.line(of: call)):"), "\(run.stderr)")
        #expect(run.stderr.contains("memory limit of \(Self.memoryLimitMiB) MiB reached"), "\(run.stderr)")
        // The app is still usable: the next URL opened.
        #expect(run.stdout.contains("visible: tt://page"), "\(run.stdout)")
        expectBounded(run, calls: 4)
    }

    @Test func aSharedTablePersistedStopsAtTheLimitAndTheEntryIsSavedWithoutIt() throws {
        let state = directory.subpath("state.json")
        let run = try open(["tt://saved", "tt://page"], state: state)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("tt://saved: persist: "), "\(run.stderr)")
        #expect(run.stderr.contains("memory limit of \(Self.memoryLimitMiB) MiB reached; saved without its state"), "\(run.stderr)")
        let saved = try String(contentsOfFile: state, encoding: .utf8)
        #expect(saved.contains("tt://saved") && !saved.contains("leaf"))
        // Launch, two opens, a save after each (one persist each time the entry is in the tree).
        expectBounded(run, calls: 8)
    }

    @Test(arguments: [("tt://lines", "Lines", "lines[1]"), ("tt://links", "Links", "links[1][1]")])
    func oneStringRenderedManyTimesStopsAtTheScreensCap(url: String, owner: String, path: String) throws {
        let run = try MeasuredRun.run(["run", directory.subpath("app"), "--no-state", "--memory-limit", "\(Self.memoryLimitMiB)"],
                                      input: "o \(url)\nb\no tt://page\nq\n")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("render() of \(owner): result 1: at \(path): more than 1 MiB of text (a screen's cap)"),
                "\(run.stdout.prefix(2000))")
        expectBounded(run, calls: 8)
    }

    @Test(arguments: [[], ["--tap"]])
    func testNamesMadeOfOneLongStringStopAtTheirLine(format: [String]) throws {
        let run = try MeasuredRun.run(["test", directory.subpath("specs/names_spec.lua"), "--memory-limit", "\(Self.memoryLimitMiB)"] + format)
        #expect(run.status == 1)
        #expect(run.stdout.contains("names_spec.lua:3: it: the full name is 1048582 bytes, more than 4096"), "\(run.stdout.prefix(2000))")
        #expect(run.stdout.utf8.count < 64 << 10)
        expectBounded(run, calls: 4)
    }

    @Test(arguments: [[], ["--tap"]])
    func failuresWithOneLongMessageAreCutInTheReport(format: [String]) throws {
        let run = try MeasuredRun.run(["test", directory.subpath("specs/messages_spec.lua"), "--memory-limit", "\(Self.memoryLimitMiB)"] + format)
        #expect(run.status == 1)
        #expect(run.stdout.contains("0 passed, 200 failed"), "\(run.stdout.suffix(500))")
        #expect(run.stdout.contains("mmm… (1048576 bytes in all)"), "\(run.stdout.prefix(500))")
        // Each of the 200 messages at most 16 KiB (a report may show it twice).
        #expect(run.stdout.utf8.count < 200 * 2 * (16 << 10) + (1 << 20))
        expectBounded(run, calls: 402)
    }
}

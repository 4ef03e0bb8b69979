import Foundation

struct MemoryResult {
    let routes: Int
    let wayfinder: MemoryBench.Usage
    let routingKit: MemoryBench.Usage

    static func mib(_ bytes: Int) -> Double { Double(bytes) / Double(1 << 20) }
    var wayfinderMiB: Double { Self.mib(wayfinder.allocated) }
    var routingKitMiB: Double { Self.mib(routingKit.allocated) }
}

/// The table on standard output, the targets with PASS/MISS, and the JSON document. A section the
/// run left out (`--only`) is left out here too.
struct Report {
    let quick: Bool
    let plan: Plan
    var match: [MatchRow] = []
    var memory: MemoryResult?
    var growth: GrowthResult?
    var open: OpenResult?
    var launch: LaunchResult?
    var reload: Double??
    /// Instructions per operation by `WORKLOAD/REGION` (`match-1000/routing-kit`, `open/floor`).
    var instructions: [String: Double] = [:]
    /// Why there are no instruction counts, when there are none.
    var countsMissing: String?
    var seconds = 0.0

    init(quick: Bool, plan: Plan) {
        self.quick = quick
        self.plan = plan
    }

    /// The instruction counts of one match row.
    struct MatchCounts {
        let wayfinder: Double?
        let parsed: Double?
        let routingKit: Double?
        let linear: Double?
        var urlRead: Double? { wayfinder.flatMap { w in parsed.map { w - $0 } } }
    }

    func counts(_ row: MatchRow) -> MatchCounts {
        let key = "match-\(row.routes)/"
        return MatchCounts(wayfinder: instructions[key + "wayfinder"], parsed: instructions[key + "wayfinder-parsed"],
                           routingKit: instructions[key + "routing-kit"], linear: instructions[key + "linear"])
    }

    struct Target {
        enum Verdict: String { case pass = "PASS", miss = "MISS", skip = "SKIP" }
        /// Stable, for scripts reading the JSON.
        let id: String
        let verdict: Verdict
        let text: String
    }

    // MARK: Targets: reported, not asserted. Time decides; instructions are shown beside it.

    var targets: [Target] {
        var targets = [Target]()
        func check(_ id: String, _ ok: Bool?, _ text: String) {
            targets.append(Target(id: id, verdict: ok.map { $0 ? .pass : .miss } ?? .skip, text: text))
        }
        for row in match {
            let c = counts(row)
            check("match-\(row.routes)-no-slower-than-routing-kit", row.wayfinder <= row.routingKit,
                  "match at \(Self.grouped(row.routes)) routes no slower than routing-kit: \(ns(row.wayfinder)) vs \(ns(row.routingKit))"
                    + " (\(ratio(row.wayfinder, row.routingKit)))" + instructionRatio(c.wayfinder, c.routingKit))
        }
        if let at1k = match.first(where: { $0.routes == 1_000 }) {
            let c = counts(at1k)
            check("match-1000-at-most-0.7x-routing-kit", at1k.wayfinder <= 0.7 * at1k.routingKit,
                  "match at 1,000 routes at most 0.7x routing-kit: \(ratio(at1k.wayfinder, at1k.routingKit))"
                    + instructionRatio(c.wayfinder, c.routingKit))
        }
        if let at10 = match.first(where: { $0.routes == 10 }), let at100k = match.first(where: { $0.routes == 100_000 }) {
            check("match-growth-10-to-100000-at-most-1.5x", at100k.wayfinder <= 1.5 * at10.wayfinder,
                  "match grows at most 1.5x from 10 to 100,000 routes: \(ns(at10.wayfinder)) to \(ns(at100k.wayfinder))"
                    + " (\(ratio(at100k.wayfinder, at10.wayfinder)))" + instructionRatio(counts(at100k).wayfinder, counts(at10).wayfinder))
        }
        if let memory {
            check("memory-100000-routes-at-most-30-mib", memory.wayfinderMiB <= 30,
                  "memory: \(Self.grouped(memory.routes)) routes in at most 30 MiB: \(fixed(memory.wayfinderMiB, 1)) MiB"
                    + " (routing-kit \(fixed(memory.routingKitMiB, 1)) MiB)")
        }
        if let open {
            check("open-back-under-2-us", open.openBackNs < 2_000, "open (+ back) under 2 µs: \(ns(open.openBackNs))")
            check("open-under-5x-floor", open.openBackNs < 5 * open.floorNs,
                  "open under 5x the floor: \(ns(open.openBackNs)) / \(ns(open.floorNs)) = \(ratio(open.openBackNs, open.floorNs))"
                    + instructionRatio(instructions["open/open+back"], instructions["open/floor"]))
        }
        if let growth {
            check("open-memory-growth-under-1-mib", growth.rssGrowthKiB < 1_024,
                  "memory growth under 1 MiB (\(Self.grouped(growth.fromCycles)) to \(Self.grouped(growth.toCycles)) open/back): \(fixed(growth.rssGrowthKiB, 0)) KiB")
        }
        if let launch {
            check("launch-under-2-ms", launch.milliseconds < 2, "launch under 2 ms: \(ms(launch.milliseconds))")
            check("launch-makes-one-controller", launch.constructed == 1, "launch makes one controller: \(launch.constructed)")
        }
        if let reload {
            check("reload-under-100-ms", reload.map { $0 < 100 }, "reload under 100 ms: " + (reload.map(ms) ?? "not measured"))
        }
        return targets
    }

    // MARK: The table

    func table() -> String {
        var lines = [String]()
        lines.append("Wayfinder benchmark (\(quick ? "quick" : "full") run; release build; medians; \(fixed(seconds, 1)) s)")
        lines.append("time in ns; instr: instructions counted by callgrind, the same on any machine and under any load"
            + (countsMissing.map { " (not counted: \($0))" } ?? ""))
        if !match.isEmpty {
            lines.append("")
            lines.append("match: per lookup, \(plan.urlCount) URLs (80% hits all over the table, 20% misses), \(plan.matchRounds) rounds")
            lines.append(row(["", "wayfinder", "", "(URL read)", "", "routing-kit", "", "linear", "", "wf/rk", "", "hits", "wf≠"]))
            lines.append(row(["routes", "ns", "instr", "ns", "instr", "ns", "instr", "ns", "instr", "time", "instr", "wf/rk/lin", "lin"]))
            for r in match {
                let c = counts(r)
                lines.append(row([Self.grouped(r.routes), fixed(r.wayfinder, 0), instr(c.wayfinder),
                                  fixed(r.wayfinder - r.wayfinderPreparsed, 0), instr(c.urlRead),
                                  fixed(r.routingKit, 0), instr(c.routingKit), fixed(r.linear, 0), instr(c.linear),
                                  fixed(r.wayfinder / r.routingKit, 2), c.wayfinder.flatMap { w in c.routingKit.map { fixed(w / $0, 2) } } ?? "-",
                                  "\(r.hits.wayfinder)/\(r.hits.routingKit)/\(r.hits.linear)", "\(r.disagreements)"]))
            }
            lines.append("  wayfinder: RouteTable.match(String), of which '(URL read)' is NavigationURL's share; routing-kit:")
            lines.append("  TrieRouter.route on the split path (no decoding, no types, no query, no backtracking, so it")
            lines.append("  answers some misses: typed-param routes take any text); linear: Three20's scan, sorted by specificity.")
        }
        if let open {
            lines.append("")
            lines.append("open: \(Self.grouped(plan.openIterations)) per round, \(plan.openRounds) rounds, driven from one Lua loop")
            lines.append("  nav:open (create mode, class constructor) + nav:back()  \(pad(ns(open.openBackNs), 10))  \(pad(instr(instructions["open/open+back"]), 9)) instr")
            lines.append("  floor: pcall(constructor) on a new instance (Lua loop)  \(pad(ns(open.floorNs), 10))  \(pad(instr(instructions["open/floor"]), 9)) instr")
            lines.append("  info: the same constructor called from Swift            \(pad(ns(open.swiftCallNs), 10))")
        }
        if let launch {
            lines.append("")
            lines.append("launch: new WayfinderHost for a 200-route app + restore of 4 tabs x 25 entries, \(plan.launchRounds) rounds")
            lines.append("  total \(ms(launch.milliseconds)) (host and scripts \(ms(launch.hostMilliseconds)), restore \(ms(launch.restoreMilliseconds)));"
                + " \(instr(instructions["launch/launch"])) instr; \(launch.entriesRestored) entries, \(launch.constructed) constructed")
            lines.append("  info: the first launch in a process, which compiles the bundled modules: \(instr(instructions["launch/first-launch"])) instr")
        }
        if let reload {
            lines.append("")
            lines.append("reload: " + (reload.map { "\(ms($0)) from writing app.lua to the new route answering" } ?? "not measured"))
        }
        if memory != nil || growth != nil {
            lines.append("")
            lines.append("memory")
        }
        if let memory {
            lines.append("  \(Self.grouped(memory.routes)) routes, each table in a fresh process: allocated (resident growth)")
            lines.append("    wayfinder    \(fixed(memory.wayfinderMiB, 1)) MiB (\(fixed(MemoryResult.mib(memory.wayfinder.resident), 1)) MiB),"
                + " \(memory.wayfinder.allocated / memory.routes) bytes a route")
            lines.append("    routing-kit  \(fixed(memory.routingKitMiB, 1)) MiB (\(fixed(MemoryResult.mib(memory.routingKit.resident), 1)) MiB),"
                + " \(memory.routingKit.allocated / memory.routes) bytes a route")
        }
        if let growth {
            lines.append("  open/back \(Self.grouped(growth.fromCycles)) -> \(Self.grouped(growth.toCycles)) cycles: RSS \(signed(growth.rssGrowthKiB)) KiB,"
                + " Lua heap \(signed(growth.luaGrowthKiB)) KiB, live handles \(growth.liveHandlesBefore) -> \(growth.liveHandlesAfter)")
        }
        lines.append("")
        lines.append("targets (reported, not asserted; time decides, instructions shown beside)")
        for target in targets { lines.append("  \(target.verdict.rawValue)  \(target.text)") }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    func json() -> String {
        func number(_ value: Double?, _ digits: Int = 1) -> String { value.map { fixed($0, digits) } ?? "null" }
        func string(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        var fields = [String]()
        fields.append("\"quick\":\(quick)")
        fields.append("\"match\":[" + match.map { r in
            let c = counts(r)
            return "{\"routes\":\(r.routes),\"urls\":\(r.urls),"
                + "\"wayfinder_ns\":\(number(r.wayfinder)),\"url_read_ns\":\(number(r.wayfinder - r.wayfinderPreparsed)),"
                + "\"routingkit_ns\":\(number(r.routingKit)),\"linear_ns\":\(number(r.linear)),"
                + "\"wayfinder_instructions\":\(number(c.wayfinder, 0)),\"url_read_instructions\":\(number(c.urlRead, 0)),"
                + "\"routingkit_instructions\":\(number(c.routingKit, 0)),\"linear_instructions\":\(number(c.linear, 0)),"
                + "\"hits\":{\"wayfinder\":\(r.hits.wayfinder),\"routingkit\":\(r.hits.routingKit),\"linear\":\(r.hits.linear)},"
                + "\"disagreements\":\(r.disagreements)}"
        }.joined(separator: ",") + "]")
        if let memory {
            fields.append("\"memory\":{\"routes\":\(memory.routes),\"wayfinder_mib\":\(fixed(memory.wayfinderMiB, 2)),"
                + "\"routingkit_mib\":\(fixed(memory.routingKitMiB, 2)),"
                + "\"wayfinder_resident_mib\":\(fixed(MemoryResult.mib(memory.wayfinder.resident), 2)),"
                + "\"routingkit_resident_mib\":\(fixed(MemoryResult.mib(memory.routingKit.resident), 2))}")
        }
        if let open {
            fields.append("\"open\":{\"wayfinder_ns\":\(number(open.openBackNs)),\"pcall_floor_ns\":\(number(open.floorNs)),"
                + "\"wayfinder_instructions\":\(number(instructions["open/open+back"], 0)),"
                + "\"pcall_floor_instructions\":\(number(instructions["open/floor"], 0))}")
        }
        if let growth {
            fields.append("\"open_growth\":{\"from_cycles\":\(growth.fromCycles),\"to_cycles\":\(growth.toCycles),"
                + "\"rss_growth_kib\":\(fixed(growth.rssGrowthKiB, 1))}")
        }
        if let launch {
            fields.append("\"launch\":{\"ms\":\(fixed(launch.milliseconds, 3)),\"constructed\":\(launch.constructed),"
                + "\"instructions\":\(number(instructions["launch/launch"], 0)),"
                + "\"first_launch_instructions\":\(number(instructions["launch/first-launch"], 0))}")
        }
        if let reload {
            fields.append("\"reload\":{\"ms\":\(reload.map { fixed($0, 3) } ?? "null")}")
        }
        fields.append("\"instructions_missing\":" + (countsMissing.map(string) ?? "null"))
        fields.append("\"targets\":[" + targets.map {
            "{\"id\":\"\($0.id)\",\"verdict\":\"\($0.verdict.rawValue)\",\"text\":\(string($0.text))}"
        }.joined(separator: ",") + "]")
        return "{" + fields.joined(separator: ",") + "}\n"
    }

    // MARK: Formatting

    private func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    private func signed(_ value: Double) -> String { String(format: "%+.0f", value) }
    private func ns(_ value: Double) -> String { fixed(value, 0) + " ns" }
    private func ms(_ value: Double) -> String { fixed(value, 2) + " ms" }
    private func instr(_ value: Double?) -> String { value.map { Self.grouped(Int($0.rounded())) } ?? "-" }
    private func ratio(_ a: Double, _ b: Double) -> String { fixed(a / b, 2) + "x" }
    private func instructionRatio(_ a: Double?, _ b: Double?) -> String {
        guard let a, let b else { return "" }
        return "; instructions \(instr(a)) vs \(instr(b)) (\(ratio(a, b)))"
    }

    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = value < 0 ? "-" : ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out += "," }
            out.append(character)
        }
        return out
    }

    private func pad(_ text: String, _ width: Int) -> String {
        String(repeating: " ", count: max(0, width - text.count)) + text
    }

    private func row(_ cells: [String]) -> String {
        let widths = [9, 7, 8, 7, 8, 7, 8, 9, 11, 6, 7, 14, 5]
        return zip(cells, widths).map { pad($0, $1) }.joined()
    }
}

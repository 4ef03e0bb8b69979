import Foundation

/// The table on standard output, the targets with PASS/MISS, and the JSON document.
struct Report {
    let quick: Bool
    let plan: Plan
    let match: [MatchRow]
    let open: OpenResult
    let launch: LaunchResult
    let reload: Double?
    let routesMiB: Double
    let growth: GrowthResult
    let seconds: Double

    struct Target {
        enum Verdict: String { case pass = "PASS", miss = "MISS", skip = "SKIP" }
        let verdict: Verdict
        let text: String
    }

    // MARK: Targets: reported, not asserted.

    var targets: [Target] {
        var targets = [Target]()
        func check(_ ok: Bool?, _ text: String) {
            targets.append(Target(verdict: ok.map { $0 ? .pass : .miss } ?? .skip, text: text))
        }
        let at1k = match.first { $0.routes == 1_000 }
        let at10 = match.first { $0.routes == 10 }
        let at100k = match.first { $0.routes == 100_000 }
        if let at1k {
            check(at1k.wayfinder <= at1k.routingKit,
                  "match at 1,000 routes no slower than routing-kit: \(ns(at1k.wayfinder)) vs \(ns(at1k.routingKit))")
        }
        if let at10, let at100k {
            let ratio = at100k.wayfinder / at10.wayfinder
            check(ratio <= 2, "match at 100,000 routes <= 2x at 10: \(ns(at100k.wayfinder)) / \(ns(at10.wayfinder)) = \(fixed(ratio, 2))x")
        }
        check(open.openBackNs < 2_000, "open (+ back) under 2 µs: \(ns(open.openBackNs))")
        let ratio = open.openBackNs / open.floorNs
        check(ratio < 5, "open under 5x the floor: \(ns(open.openBackNs)) / \(ns(open.floorNs)) = \(fixed(ratio, 1))x")
        check(launch.milliseconds < 10, "launch under 10 ms: \(ms(launch.milliseconds))")
        check(launch.constructed == 1, "launch makes one controller: \(launch.constructed)")
        check(reload.map { $0 < 100 }, "reload under 100 ms: " + (reload.map(ms) ?? "not measured"))
        check(growth.rssGrowthKiB < 1_024,
              "memory growth under 1 MiB (\(count(growth.fromCycles)) to \(count(growth.toCycles)) open/back): \(fixed(growth.rssGrowthKiB, 0)) KiB")
        return targets
    }

    // MARK: The table

    func table() -> String {
        var lines = [String]()
        lines.append("Wayfinder benchmark (\(quick ? "quick" : "full") run; release build; medians; \(fixed(seconds, 1)) s)")
        lines.append("")
        lines.append("match: ns per lookup, \(plan.urlCount) URLs (80% hits all over the table, 20% misses), \(plan.matchRounds) rounds")
        lines.append(row(["routes", "wayfinder", "(URL read)", "routing-kit", "linear", "hits wf/rk/lin", "wf≠lin"]))
        for r in match {
            lines.append(row([count(r.routes), fixed(r.wayfinder, 0), fixed(r.wayfinder - r.wayfinderPreparsed, 0),
                              fixed(r.routingKit, 0), fixed(r.linear, 0),
                              "\(r.hits.wayfinder)/\(r.hits.routingKit)/\(r.hits.linear)", "\(r.disagreements)"]))
        }
        lines.append("  wayfinder: RouteTable.match(String), of which '(URL read)' is NavigationURL's share; routing-kit:")
        lines.append("  TrieRouter.route on the split path (no decoding, no types, no query, no backtracking, so it")
        lines.append("  answers some misses: typed-param routes take any text); linear: Three20's scan, sorted by specificity.")
        lines.append("")
        lines.append("open: \(count(plan.openIterations)) per round, \(plan.openRounds) rounds, driven from one Lua loop")
        lines.append("  nav:open (create mode, class constructor) + nav:back()  \(pad(ns(open.openBackNs), 10))")
        lines.append("  floor: pcall(constructor) on a new instance (Lua loop)  \(pad(ns(open.floorNs), 10))")
        lines.append("  info: the same constructor called from Swift            \(pad(ns(open.swiftCallNs), 10))")
        lines.append("")
        lines.append("launch: new AppHost for a 200-route app + restore of 4 tabs x 25 entries, \(plan.launchRounds) rounds")
        lines.append("  total \(ms(launch.milliseconds)) (host and scripts \(ms(launch.hostMilliseconds)), restore \(ms(launch.restoreMilliseconds)));"
            + " \(launch.entriesRestored) entries, \(launch.constructed) constructed")
        lines.append("")
        lines.append("reload: " + (reload.map { "\(ms($0)) from writing app.lua to the new route answering" }
            ?? "not measured"))
        lines.append("")
        lines.append("memory")
        lines.append("  100,000 routes: \(fixed(routesMiB, 1)) MiB resident")
        lines.append("  open/back \(count(growth.fromCycles)) -> \(count(growth.toCycles)) cycles: RSS \(signed(growth.rssGrowthKiB)) KiB,"
            + " Lua heap \(signed(growth.luaGrowthKiB)) KiB, live handles \(growth.liveHandlesBefore) -> \(growth.liveHandlesAfter)")
        lines.append("")
        lines.append("targets (reported, not asserted)")
        for target in targets { lines.append("  \(target.verdict.rawValue)  \(target.text)") }
        return lines.joined(separator: "\n")
    }

    // MARK: JSON

    func json() -> String {
        let matches = match.map {
            "{\"routes\":\($0.routes),\"wayfinder_ns\":\(fixed($0.wayfinder, 1)),\"routingkit_ns\":\(fixed($0.routingKit, 1)),\"linear_ns\":\(fixed($0.linear, 1))}"
        }
        return "{\"match\":[\(matches.joined(separator: ","))],"
            + "\"open\":{\"wayfinder_ns\":\(fixed(open.openBackNs, 1)),\"pcall_floor_ns\":\(fixed(open.floorNs, 1))},"
            + "\"launch\":{\"ms\":\(fixed(launch.milliseconds, 3)),\"constructed\":\(launch.constructed)},"
            + "\"reload\":{\"ms\":\(reload.map { fixed($0, 3) } ?? "null")},"
            + "\"memory\":{\"routes_100k_mib\":\(fixed(routesMiB, 2)),\"rss_growth_kib\":\(fixed(growth.rssGrowthKiB, 1))}}\n"
    }

    // MARK: Formatting

    private func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }
    private func signed(_ value: Double) -> String { String(format: "%+.0f", value) }
    private func ns(_ value: Double) -> String { fixed(value, 0) + " ns" }
    private func ms(_ value: Double) -> String { fixed(value, 2) + " ms" }
    private func count(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
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
        let widths = [9, 11, 12, 13, 10, 17, 8]
        return zip(cells, widths).map { pad($0, $1) }.joined()
    }
}

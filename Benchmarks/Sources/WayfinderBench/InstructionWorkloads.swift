import Foundation

/// What `--count WORKLOAD` runs (under callgrind, started by `Callgrind.count`): the workloads the
/// timed bench measures, each operation counted once warm, as a region named for its contender.
///
/// - `match-N`: an N-route table; each contender's pass over the bench's 1,000 URLs, twice (the
///   linear scan over fewer URLs from 10,000 routes on, since each of its lookups walks the table);
/// - `open`: 2,000 open/back cycles and 2,000 floor calls;
/// - `launch`: the first launch of the launch bench's app in the process (which compiles the
///   bundled modules, kept as bytecode for every later state), then another, as the timed bench
///   measures it.
enum InstructionWorkloads {
    static let names = "match-N (N routes), open, launch"

    static func run(_ workload: String) throws {
        let parts = workload.split(separator: "-", maxSplits: 1)
        switch (parts.first.map(String.init), parts.count > 1 ? Int(parts[1]) : nil) {
        case ("match", let routes?) where routes > 0:
            let contenders = try MatchContenders(routeCount: routes, urlCount: 1_000)
            for contender in contenders.passes() {
                let limit = contender.name == "linear" ? min(contender.urls, max(50, 2_000_000 / routes)) : contender.urls
                let pass = contender.name == "linear"
                    ? contenders.passes(limit: limit).first { $0.name == "linear" }!.pass
                    : contender.pass
                blackHole(try pass())
                let sum = try Callgrind.region(contender.name, operations: 2 * limit) { try pass() &+ pass() }
                blackHole(sum)
            }
        case ("open", nil):
            let bench = try OpenBench()
            _ = try bench.cycles(200)
            _ = try bench.floor(200)
            try Callgrind.region("open+back", operations: 2_000) { _ = try bench.cycles(2_000) }
            try Callgrind.region("floor", operations: 2_000) { _ = try bench.floor(2_000) }
        case ("launch", nil):
            let fixture = try LaunchFixture()
            defer { fixture.remove() }
            try Callgrind.region("first-launch", operations: 1) { _ = try fixture.launch() }
            _ = try fixture.launch()
            try Callgrind.region("launch", operations: 1) { _ = try fixture.launch() }
        default:
            throw BenchError("unknown workload '\(workload)' (\(names))")
        }
    }
}

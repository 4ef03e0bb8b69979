import Logging
import RoutingKit
import Wayfinder

/// One workload, untimed, for `valgrind --tool=callgrind` (which counts instructions, so the
/// numbers do not depend on what else the machine is doing). The set-up is counted too; read the
/// inclusive cost of the loop's function (`lookUp`, `cycles`, `floor`): 20,000 lookups or cycles.
///
/// valgrind 3.19 cannot read the toolchain's default DWARF 5, so build a profiling copy with:
///
///     swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build/profile \
///         -Xswiftc -dwarf-version=4 -Xcc -gdwarf-4
///     valgrind --tool=callgrind Benchmarks/.build/profile/release/WayfinderBench --profile open
///     callgrind_annotate --inclusive=yes callgrind.out.<pid>
enum Profile {
    static func run(_ workload: String) throws {
        let parts = workload.split(separator: "-")
        let routes = parts.count > 1 ? Int(parts[1]) ?? 1_000 : 1_000
        switch parts.first.map(String.init) {
        case "match":
            let (set, table) = try wayfinderTable(routes)
            var sum = 0
            for _ in 0..<20 { sum &+= try MatchBench.lookUp(table, set.urls) }
            blackHole(sum)
        case "routingkit":
            let set = RouteSet(routeCount: routes, urlCount: 1_000, seed: UInt64(routes) &* 7919)
            let logger = Logger(label: "bench.routing-kit", factory: { _ in SwiftLogNoOpLogHandler() })
            let router = TrieRouter(Int.self, logger: logger)
            var registered = Set<String>()
            for (id, route) in set.routes.enumerated() {
                let path = MatchBench.routingKitPath(route)
                if registered.insert(path.map(\.description).joined(separator: "/")).inserted { router.register(id, at: path) }
            }
            var sum = 0
            for _ in 0..<20 { sum &+= MatchBench.lookUp(router, logger, set.urls) }
            blackHole(sum)
        case "linear":
            let set = RouteSet(routeCount: routes, urlCount: 1_000, seed: UInt64(routes) &* 7919)
            let linear = LinearRouter(set.routes)
            blackHole(MatchBench.lookUp(linear, set.urls))
        case "open":
            let bench = try OpenBench()
            _ = try bench.cycles(20_000)
        case "floor":
            let bench = try OpenBench()
            _ = try bench.floor(20_000)
        case "launch":
            _ = try LaunchBench(rounds: 1).run()
        default:
            throw BenchError("unknown workload '\(workload)' (match-N, routingkit-N, linear-N, open, floor, launch)")
        }
    }

    private static func wayfinderTable(_ routes: Int) throws -> (RouteSet, RouteTable<Int>) {
        let set = RouteSet(routeCount: routes, urlCount: 1_000, seed: UInt64(routes) &* 7919)
        let table = RouteTable<Int>()
        for (id, route) in set.routes.enumerated() { try table.add(route.wayfinderPattern, target: id) }
        return (set, table)
    }
}

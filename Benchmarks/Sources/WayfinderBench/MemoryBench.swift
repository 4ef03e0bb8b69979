import HeapUsage
import Logging
import RoutingKit
import Wayfinder

/// What a table of `count` routes adds to a fresh process (`--memory CONTENDER N`, run as a child
/// by the bench, so neither contender reuses memory the other freed), with the routes' texts and
/// paths already made (they are the app's, not the table's): the bytes the allocator handed out
/// for it (chunk overheads included), and the growth of the resident size. The allocated figure
/// is the one the target reads: the resident one can stay low when the table fills pages that
/// making the texts used and freed.
enum MemoryBench {
    static let contenders = ["wayfinder", "routing-kit"]

    struct Usage {
        let allocated: Int
        let resident: Int
    }

    /// Measured in this process.
    static func usage(_ contender: String, count: Int) throws -> Usage {
        let set = RouteSet(routeCount: count, urlCount: 0, seed: 1)
        switch contender {
        case "wayfinder":
            let texts = set.routes.map(\.wayfinderPattern)
            let before = snapshot()
            let table = RouteTable<Int>()
            for (id, text) in texts.enumerated() { try table.add(text, target: id) }
            let after = snapshot()
            guard table.count == count else { throw BenchError("the table holds \(table.count) routes, not \(count)") }
            withExtendedLifetime((table, texts)) {}
            return Usage(allocated: after.allocated - before.allocated, resident: after.resident - before.resident)
        case "routing-kit":
            // The same paths the match bench registers: one per distinct path (routing-kit has no
            // param types, so `item/(id:int)` and `item/(name)` are one path to it).
            var registered = Set<String>()
            var paths = [(Int, [PathComponent])]()
            for (id, route) in set.routes.enumerated() {
                let path = MatchBench.routingKitPath(route)
                if registered.insert(path.map(\.description).joined(separator: "/")).inserted { paths.append((id, path)) }
            }
            let logger = Logger(label: "bench.routing-kit", factory: { _ in SwiftLogNoOpLogHandler() })
            let before = snapshot()
            let router = TrieRouter(Int.self, logger: logger)
            for (id, path) in paths { router.register(id, at: path) }
            let after = snapshot()
            withExtendedLifetime((router, paths)) {}
            return Usage(allocated: after.allocated - before.allocated, resident: after.resident - before.resident)
        default:
            throw BenchError("unknown memory contender '\(contender)' (\(contenders.joined(separator: ", ")))")
        }
    }

    private static func snapshot() -> Usage {
        Usage(allocated: heap_usage_bytes(), resident: residentBytes())
    }

    /// The same, in a fresh child process of the bench (which prints the two figures).
    static func measure(_ contender: String, count: Int) throws -> Usage {
        let result = try Subprocess.run(Subprocess.selfPath, ["--memory", contender, String(count)])
        let figures = result.standardOutput.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard result.status == 0, figures.count == 2 else {
            throw BenchError("memory child for \(contender) failed (\(result.status)): \(result.standardError)")
        }
        return Usage(allocated: figures[0], resident: figures[1])
    }
}

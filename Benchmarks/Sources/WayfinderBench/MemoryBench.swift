import Logging
import RoutingKit
import Wayfinder

/// What a table of `count` routes adds to the resident size of a fresh process (`--memory
/// CONTENDER N`, run as a child by the bench, so neither contender reuses pages the other freed):
/// RSS after building it minus RSS before, with the routes' texts and paths already made (they
/// are the app's, not the table's).
enum MemoryBench {
    static let contenders = ["wayfinder", "routing-kit"]

    /// Bytes added, measured in this process.
    static func residentBytes(_ contender: String, count: Int) throws -> Int {
        let set = RouteSet(routeCount: count, urlCount: 0, seed: 1)
        switch contender {
        case "wayfinder":
            let texts = set.routes.map(\.wayfinderPattern)
            let before = WayfinderBench.residentBytes()
            let table = RouteTable<Int>()
            for (id, text) in texts.enumerated() { try table.add(text, target: id) }
            let after = WayfinderBench.residentBytes()
            guard table.count == count else { throw BenchError("the table holds \(table.count) routes, not \(count)") }
            withExtendedLifetime((table, texts)) {}
            return after - before
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
            let before = WayfinderBench.residentBytes()
            let router = TrieRouter(Int.self, logger: logger)
            for (id, path) in paths { router.register(id, at: path) }
            let after = WayfinderBench.residentBytes()
            withExtendedLifetime((router, paths)) {}
            return after - before
        default:
            throw BenchError("unknown memory contender '\(contender)' (\(contenders.joined(separator: ", ")))")
        }
    }

    /// The same, in a fresh child process of the bench.
    static func residentMiB(_ contender: String, count: Int) throws -> Double {
        let result = try Subprocess.run(Subprocess.selfPath, ["--memory", contender, String(count)])
        guard result.status == 0, let bytes = Int(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError("memory child for \(contender) failed (\(result.status)): \(result.standardError)")
        }
        return Double(bytes) / Double(1 << 20)
    }
}

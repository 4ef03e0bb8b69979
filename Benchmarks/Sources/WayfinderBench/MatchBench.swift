import Logging
import RoutingKit
import Wayfinder

/// Per-lookup nanoseconds for one table size, each the median over the rounds.
struct MatchRow {
    let routes: Int
    let urls: Int
    /// `RouteTable.match(String)`: reading the URL, the search, the bound values.
    let wayfinder: Double
    /// `RouteTable.match(NavigationURL)` on URLs read beforehand: the search and binding alone.
    let wayfinderPreparsed: Double
    let routingKit: Double
    let linear: Double
    let hits: (wayfinder: Int, routingKit: Int, linear: Int)
    /// URLs where Wayfinder and the linear scan chose different routes (both follow docs/matching.md's
    /// precedence here, so this must be 0).
    let disagreements: Int
}

/// Wayfinder's RouteTable, routing-kit's TrieRouter and the Three20-style linear scan, on the same
/// routes and the same URLs, interleaved round by round.
struct MatchBench {
    let sizes: [Int]
    let urlCount: Int
    let rounds: Int
    /// Each timed pass over the URLs is repeated until it lasts about this long.
    let passNanoseconds: Double

    func run() throws -> [MatchRow] {
        try sizes.map(measure)
    }

    private func measure(routeCount: Int) throws -> MatchRow {
        let set = RouteSet(routeCount: routeCount, urlCount: urlCount, seed: UInt64(routeCount) &* 7919)

        let table = RouteTable<Int>()
        for (id, route) in set.routes.enumerated() {
            try table.add(route.wayfinderPattern, target: id)
        }

        let logger = Logger(label: "bench.routing-kit", factory: { _ in SwiftLogNoOpLogHandler() })
        let router = TrieRouter(Int.self, logger: logger)
        var registered = Set<String>()
        for (id, route) in set.routes.enumerated() {
            let path = Self.routingKitPath(route)
            // routing-kit has no param types: `item/(id:int)` and `item/(name)` are the same path
            // to it, and the first one registered (the int route) keeps it.
            if registered.insert(path.map(\.description).joined(separator: "/")).inserted {
                router.register(id, at: path)
            }
        }

        let linear = LinearRouter(set.routes)
        let urls = set.urls
        let parsed = urls.map { try? NavigationURL($0) }

        // Same answers first: Wayfinder and the scan must agree route for route.
        var hits = (wayfinder: 0, routingKit: 0, linear: 0)
        var disagreements = 0
        for url in urls {
            let ours = try table.match(url).match?.route.target
            let theirs = linear.match(url)?.id
            if ours != nil { hits.wayfinder += 1 }
            if theirs != nil { hits.linear += 1 }
            if ours != theirs { disagreements += 1 }
            var parameters = Parameters(logger)
            if router.route(path: Self.segments(url), parameters: &parameters) != nil { hits.routingKit += 1 }
        }

        let contenders: [(String, () throws -> Int)] = [
            ("wayfinder", { try Self.lookUp(table, urls) }),
            ("wayfinder-preparsed", { try Self.lookUp(table, parsed) }),
            ("routing-kit", { Self.lookUp(router, logger, urls) }),
            ("linear", { Self.lookUp(linear, urls) }),
        ]
        var repetitions = [Int]()
        for (_, pass) in contenders {
            // One pass to warm up and to learn how many passes make a round last long enough.
            var sink = 0
            let once = try timed { sink = try pass() }
            blackHole(sink)
            repetitions.append(max(1, Int((passNanoseconds / max(once, 1)).rounded(.up))))
        }
        var samples = Array(repeating: [Double](), count: contenders.count)
        for round in 0..<rounds {
            // Rotate who goes first, so no contender always runs on a cache the other warmed.
            for offset in 0..<contenders.count {
                let index = (round + offset) % contenders.count
                let reps = repetitions[index]
                var sink = 0
                let elapsed = try timed {
                    for _ in 0..<reps { sink &+= try contenders[index].1() }
                }
                blackHole(sink)
                samples[index].append(elapsed / Double(reps * urls.count))
            }
        }
        let row = MatchRow(routes: routeCount, urls: urls.count, wayfinder: median(samples[0]), wayfinderPreparsed: median(samples[1]),
                           routingKit: median(samples[2]), linear: median(samples[3]), hits: hits, disagreements: disagreements)
        withExtendedLifetime((table, router, linear)) {}
        return row
    }

    // MARK: The contenders' loops

    @inline(never)
    static func lookUp(_ table: RouteTable<Int>, _ urls: [String]) throws -> Int {
        var sum = 0
        for url in urls {
            if case .matched(let match) = try table.match(url) { sum &+= match.route.target &+ match.params.count }
        }
        return sum
    }

    @inline(never)
    static func lookUp(_ table: RouteTable<Int>, _ urls: [NavigationURL?]) throws -> Int {
        var sum = 0
        for url in urls {
            guard let url else { continue }
            if case .matched(let match) = try table.match(url) { sum &+= match.route.target &+ match.params.count }
        }
        return sum
    }

    @inline(never)
    static func lookUp(_ router: TrieRouter<Int>, _ logger: Logger, _ urls: [String]) -> Int {
        var sum = 0
        for url in urls {
            var parameters = Parameters(logger)
            if let id = router.route(path: segments(url), parameters: &parameters) {
                sum &+= id &+ parameters.allNames.count
            }
        }
        return sum
    }

    @inline(never)
    static func lookUp(_ linear: LinearRouter, _ urls: [String]) -> Int {
        var sum = 0
        for url in urls {
            if let match = linear.match(url) { sum &+= match.id &+ match.params.count }
        }
        return sum
    }

    // MARK: routing-kit's side

    /// The same route as routing-kit paths: the host is the first component; params are named by
    /// position, since routing-kit wants one name per position under a prefix.
    static func routingKitPath(_ route: RouteSet.RouteSpec) -> [PathComponent] {
        route.components.enumerated().map { index, component in
            switch component {
            case .literal(let text): return .constant(text)
            case .param: return .parameter("p\(index)")
            case .catchAll: return .catchall
            }
        }
    }

    /// What a server does before asking routing-kit: the path split on `/` (empty parts dropped),
    /// here with the lowercased host in front; the query and fragment cut off. Written over the
    /// UTF-8 bytes, as a server's request parser would be, so routing-kit is not charged for slow
    /// String slicing.
    static func segments(_ url: String) -> [String] {
        var url = url
        return url.withUTF8 { bytes -> [String] in
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return [] }
            var parts = [String]()
            var start = colon + 1
            var index = start
            while true {
                let atEnd = index == bytes.count || bytes[index] == UInt8(ascii: "?") || bytes[index] == UInt8(ascii: "#")
                if atEnd || bytes[index] == UInt8(ascii: "/") {
                    if index > start {
                        let part = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                        parts.append(parts.isEmpty ? part.lowercased() : part)
                    }
                    if atEnd { break }
                    start = index + 1
                }
                index += 1
            }
            return parts
        }
    }
}

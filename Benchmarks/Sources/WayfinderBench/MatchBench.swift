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

/// The three contenders for one table size, built from the same routes, and the URLs they look up.
struct MatchContenders {
    let routeCount: Int
    let urls: [String]
    /// The same URLs read beforehand, for the search-only figure.
    let parsed: [NavigationURL?]
    let table: RouteTable<Int>
    let router: TrieRouter<Int>
    let logger: Logger
    let linear: LinearRouter

    init(routeCount: Int, urlCount: Int) throws {
        self.routeCount = routeCount
        let set = RouteSet(routeCount: routeCount, urlCount: urlCount, seed: UInt64(routeCount) &* 7919)
        table = RouteTable<Int>()
        for (id, route) in set.routes.enumerated() {
            try table.add(route.wayfinderPattern, target: id)
        }
        logger = Logger(label: "bench.routing-kit", factory: { _ in SwiftLogNoOpLogHandler() })
        router = TrieRouter(Int.self, logger: logger)
        var registered = Set<String>()
        for (id, route) in set.routes.enumerated() {
            let path = MatchBench.routingKitPath(route)
            // routing-kit has no param types: `item/(id:int)` and `item/(name)` are the same path
            // to it, and the first one registered (the int route) keeps it.
            if registered.insert(path.map(\.description).joined(separator: "/")).inserted {
                router.register(id, at: path)
            }
        }
        linear = LinearRouter(set.routes)
        urls = set.urls
        parsed = urls.map { try? NavigationURL($0) }
    }

    /// Each contender's pass over `urls` (or its first `limit`), by name, in the table's order.
    func passes(limit: Int? = nil) -> [(name: String, urls: Int, pass: () throws -> Int)] {
        let urls = limit.map { Array(self.urls.prefix($0)) } ?? self.urls
        let parsed = limit.map { Array(self.parsed.prefix($0)) } ?? self.parsed
        return [
            ("wayfinder", urls.count, { try MatchBench.lookUp(table, urls) }),
            ("wayfinder-parsed", urls.count, { try MatchBench.lookUp(table, parsed) }),
            ("routing-kit", urls.count, { MatchBench.lookUp(router, logger, urls) }),
            ("linear", urls.count, { MatchBench.lookUp(linear, urls) }),
        ]
    }
}

/// Wayfinder's RouteTable, routing-kit's TrieRouter and the Three20-style linear scan, on the same
/// routes and the same URLs. Every size's tables are built first and all of them are measured in
/// the same rounds, so a change in the machine's load during the run shifts every size and every
/// contender alike, and the ratios (between contenders, and from 10 to 100,000 routes) hold. Times
/// are the thread's CPU time (`cpuTimed`), so waiting for a core on a busy machine is not counted.
struct MatchBench {
    let sizes: [Int]
    let urlCount: Int
    let rounds: Int
    /// Each timed pass over the URLs is repeated until it lasts about this long.
    let passNanoseconds: Double

    func run() throws -> [MatchRow] {
        var tables = [MatchContenders]()
        var agreement = [(hits: (wayfinder: Int, routingKit: Int, linear: Int), disagreements: Int)]()
        for size in sizes {
            note("bench: match, \(Report.grouped(size)) routes: building and checking")
            let contenders = try MatchContenders(routeCount: size, urlCount: urlCount)
            agreement.append(try Self.agreement(contenders))
            tables.append(contenders)
        }

        // One job per size and contender; one pass each to warm up and to learn how many passes
        // make a round last long enough.
        var jobs = [(table: Int, contender: Int, pass: () throws -> Int, repetitions: Int)]()
        for (table, contenders) in tables.enumerated() {
            for (contender, pass) in contenders.passes().map(\.pass).enumerated() {
                var sink = 0
                let once = try cpuTimed { sink = try pass() }
                blackHole(sink)
                jobs.append((table, contender, pass, max(1, Int((passNanoseconds / max(once, 1)).rounded(.up)))))
            }
        }
        var samples = Array(repeating: [Double](), count: jobs.count)
        for round in 0..<rounds {
            note("bench: match, round \(round + 1) of \(rounds)")
            // Rotate who goes first, so no job always runs on a cache another one warmed.
            for offset in 0..<jobs.count {
                let index = (round + offset) % jobs.count
                let job = jobs[index]
                var sink = 0
                let elapsed = try cpuTimed {
                    for _ in 0..<job.repetitions { sink &+= try job.pass() }
                }
                blackHole(sink)
                samples[index].append(elapsed / Double(job.repetitions * tables[job.table].urls.count))
            }
        }
        return tables.indices.map { table in
            let times = jobs.indices.filter { jobs[$0].table == table }.sorted { jobs[$0].contender < jobs[$1].contender }
                .map { median(samples[$0]) }
            return MatchRow(routes: tables[table].routeCount, urls: tables[table].urls.count, wayfinder: times[0],
                            wayfinderPreparsed: times[1], routingKit: times[2], linear: times[3],
                            hits: agreement[table].hits, disagreements: agreement[table].disagreements)
        }
    }

    /// Same answers first: Wayfinder and the scan must agree route for route.
    private static func agreement(_ contenders: MatchContenders)
        throws -> (hits: (wayfinder: Int, routingKit: Int, linear: Int), disagreements: Int) {
        var hits = (wayfinder: 0, routingKit: 0, linear: 0)
        var disagreements = 0
        for url in contenders.urls {
            let ours = try contenders.table.match(url).match?.route.target
            let theirs = contenders.linear.match(url)?.id
            if ours != nil { hits.wayfinder += 1 }
            if theirs != nil { hits.linear += 1 }
            if ours != theirs { disagreements += 1 }
            var parameters = Parameters(contenders.logger)
            if contenders.router.route(path: segments(url), parameters: &parameters) != nil { hits.routingKit += 1 }
        }
        return (hits, disagreements)
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

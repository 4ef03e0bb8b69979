import Foundation

// scripts/bench [--quick] [--json FILE]: Wayfinder's speed next to its peers, on this machine.

struct Options {
    var quick = false
    var jsonPath: String?
    var profile: String?

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 0
        while index < arguments.count {
            switch arguments[index] {
            case "--quick":
                options.quick = true
            case "--json":
                index += 1
                guard index < arguments.count else { usage("--json needs a file") }
                options.jsonPath = arguments[index]
            case "--profile":
                index += 1
                guard index < arguments.count else { usage("--profile needs a workload") }
                options.profile = arguments[index]
            case "-h", "--help":
                print(usageText)
                exit(0)
            default:
                usage("unknown argument '\(arguments[index])'")
            }
            index += 1
        }
        return options
    }

    static let usageText = """
    usage: scripts/bench [--quick] [--json FILE]
      --quick      a smaller run (fewer URLs, rounds and cycles), under a minute
      --json FILE  also write the results as JSON to FILE
      --profile match-N|routingkit-N|linear-N|open|floor|launch
                   run one workload untimed, for valgrind --tool=callgrind
    """

    static func usage(_ problem: String) -> Never {
        note("bench: \(problem)\n\(usageText)")
        exit(2)
    }
}

struct Plan {
    let sizes = [10, 1_000, 10_000, 100_000]
    let urlCount: Int
    let matchRounds: Int
    let passNanoseconds: Double
    let openIterations: Int
    let openRounds: Int
    let growthFrom = 10_000
    let growthTo: Int
    let launchRounds: Int
    let reloadRounds: Int

    static func make(quick: Bool) -> Plan {
        quick
            ? Plan(urlCount: 400, matchRounds: 3, passNanoseconds: 5e6, openIterations: 20_000, openRounds: 3,
                   growthTo: 200_000, launchRounds: 3, reloadRounds: 3)
            : Plan(urlCount: 1_000, matchRounds: 7, passNanoseconds: 30e6, openIterations: 100_000, openRounds: 7,
                   growthTo: 1_000_000, launchRounds: 9, reloadRounds: 7)
    }
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
let plan = Plan.make(quick: options.quick)
let started = nowNanoseconds()

if let workload = options.profile {
    do {
        try Profile.run(workload)
    } catch {
        note("bench: failed: \(error)")
        exit(1)
    }
    exit(0)
}

do {
    // Memory first, while the heap is fresh.
    note("bench: memory of 100,000 routes")
    let routesMiB = try routeTableResidentMiB(count: 100_000)

    note("bench: open/back growth, \(plan.growthFrom) to \(plan.growthTo) cycles")
    let growth = try OpenBench().growth(from: plan.growthFrom, to: plan.growthTo)

    var rows = [MatchRow]()
    for size in plan.sizes {
        note("bench: match, \(size) routes")
        rows += try MatchBench(sizes: [size], urlCount: plan.urlCount, rounds: plan.matchRounds,
                               passNanoseconds: plan.passNanoseconds).run()
    }

    note("bench: open/back")
    let open = try OpenBench().measure(iterations: plan.openIterations, rounds: plan.openRounds)

    note("bench: launch")
    let launch = try LaunchBench(rounds: plan.launchRounds).run()

    note("bench: reload")
    let reload = try ReloadBench(rounds: plan.reloadRounds).measureReload()

    let report = Report(quick: options.quick, plan: plan, match: rows, open: open, launch: launch, reload: reload,
                        routesMiB: routesMiB, growth: growth,
                        seconds: Double(nowNanoseconds() - started) / 1e9)
    print(report.table())
    if let path = options.jsonPath {
        try Data(report.json().utf8).write(to: URL(fileURLWithPath: path))
        note("bench: wrote \(path)")
    }
} catch {
    note("bench: failed: \(error)")
    exit(1)
}

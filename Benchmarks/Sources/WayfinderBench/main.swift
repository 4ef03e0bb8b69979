import Foundation

// scripts/bench: Wayfinder's speed next to its peers, on this machine (see `usageText`).

struct Options {
    var quick = false
    var jsonPath: String?
    var sections = Set(Section.allCases)
    var profile: String?
    var count: String?
    var memory: (contender: String, routes: Int)?

    enum Section: String, CaseIterable {
        case match, memory, open, launch, reload
    }

    static func parse(_ arguments: [String]) -> Options {
        var options = Options()
        var index = 0
        func value(_ flag: String) -> String {
            index += 1
            guard index < arguments.count else { usage("\(flag) needs a value") }
            return arguments[index]
        }
        while index < arguments.count {
            switch arguments[index] {
            case "--quick":
                options.quick = true
            case "--json":
                options.jsonPath = value("--json")
            case "--only":
                var sections = Set<Section>()
                for name in value("--only").split(separator: ",") {
                    guard let section = Section(rawValue: String(name)) else { usage("unknown section '\(name)'") }
                    sections.insert(section)
                }
                options.sections = sections
            case "--profile":
                options.profile = value("--profile")
            case "--count":
                options.count = value("--count")
            case "--memory":
                let contender = value("--memory")
                guard let routes = Int(value("--memory")), routes > 0 else { usage("--memory needs a contender and a route count") }
                options.memory = (contender, routes)
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
    usage: scripts/bench [--quick] [--json FILE] [--only SECTIONS] [--profile WORKLOAD]
      --quick             a smaller run (fewer URLs, rounds and cycles)
      --json FILE         also write the results as JSON to FILE
      --only SECTIONS     run only these, comma-separated: \(Section.allCases.map(\.rawValue).joined(separator: ","))
      --profile WORKLOAD  run one workload under callgrind, keep its files and print how to read them;
                          WORKLOAD is \(InstructionWorkloads.names)
    Instruction counts (callgrind) are printed beside the times when valgrind is installed.
    Used by the bench itself: --count WORKLOAD (under callgrind), --memory CONTENDER ROUTES.
    """

    static func usage(_ problem: String) -> Never {
        note("bench: \(problem)\n\(usageText)")
        exit(2)
    }
}

struct Plan {
    let sizes = [10, 1_000, 10_000, 100_000]
    let memoryRoutes = 100_000
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

/// The child modes: a workload under callgrind, or one contender's memory.
func runChild(_ options: Options) -> Never {
    do {
        if let workload = options.count {
            try InstructionWorkloads.run(workload)
        } else if let (contender, routes) = options.memory {
            let usage = try MemoryBench.usage(contender, count: routes)
            print(usage.allocated, usage.resident)
        }
    } catch {
        note("bench: failed: \(error)")
        exit(1)
    }
    exit(0)
}

/// `--profile`: the workload's regions, counted, with their callgrind files kept.
func profile(_ workload: String) -> Never {
    do {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-callgrind-\(workload)")
        note("bench: \(workload) under callgrind (the set-up runs uninstrumented)")
        let counts = try Callgrind.count(workload, keepIn: directory)
        for count in counts {
            print("\(count.name): \(Report.grouped(Int(count.perOperation.rounded()))) instructions per operation"
                + " (\(count.operations) operations)\n  \(count.file)")
        }
        print("read one with: callgrind_annotate --inclusive=yes FILE | less")
    } catch {
        note("bench: failed: \(error)")
        exit(1)
    }
    exit(0)
}

let options = Options.parse(Array(CommandLine.arguments.dropFirst()))
if options.count != nil || options.memory != nil { runChild(options) }
if let workload = options.profile { profile(workload) }

let plan = Plan.make(quick: options.quick)
let started = nowNanoseconds()
let sections = options.sections

do {
    var report = Report(quick: options.quick, plan: plan)

    if sections.contains(.memory) {
        note("bench: memory of \(plan.memoryRoutes) routes (a fresh process each)")
        report.memory = MemoryResult(routes: plan.memoryRoutes,
                                     wayfinder: try MemoryBench.measure("wayfinder", count: plan.memoryRoutes),
                                     routingKit: try MemoryBench.measure("routing-kit", count: plan.memoryRoutes))
    }

    if sections.contains(.open) {
        note("bench: open/back growth, \(plan.growthFrom) to \(plan.growthTo) cycles")
        report.growth = try OpenBench().growth(from: plan.growthFrom, to: plan.growthTo)
    }

    if sections.contains(.match) {
        report.match = try MatchBench(sizes: plan.sizes, urlCount: plan.urlCount, rounds: plan.matchRounds,
                                      passNanoseconds: plan.passNanoseconds).run()
    }

    if sections.contains(.open) {
        note("bench: open/back")
        report.open = try OpenBench().measure(iterations: plan.openIterations, rounds: plan.openRounds)
    }

    if sections.contains(.launch) {
        note("bench: launch")
        report.launch = try LaunchBench(rounds: plan.launchRounds).run()
    }

    if sections.contains(.reload) {
        note("bench: reload")
        report.reload = try ReloadBench(rounds: plan.reloadRounds).measureReload()
    }

    // Counted after the timings, so the callgrind children do not share the machine with them.
    if let reason = Callgrind.unavailableReason {
        report.countsMissing = reason
    } else {
        var workloads = [String]()
        if sections.contains(.match) { workloads += plan.sizes.map { "match-\($0)" } }
        if sections.contains(.open) { workloads.append("open") }
        if sections.contains(.launch) { workloads.append("launch") }
        for workload in workloads {
            note("bench: instructions, \(workload) (callgrind)")
            for count in try Callgrind.count(workload) { report.instructions[workload + "/" + count.name] = count.perOperation }
        }
    }

    report.seconds = Double(nowNanoseconds() - started) / 1e9
    print(report.table())
    if let path = options.jsonPath {
        try Data(report.json().utf8).write(to: URL(fileURLWithPath: path))
        note("bench: wrote \(path)")
    }
} catch {
    note("bench: failed: \(error)")
    exit(1)
}

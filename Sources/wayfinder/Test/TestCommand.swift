import ArgumentParser
import Foundation
import WayfinderLua

/// `wayfinder test [PATH...]`: runs `*_spec.lua` files written in busted's vocabulary, each in
/// a fresh app state. Exit status 1 when a test failed or errored (or nothing ran), 2 when a path
/// does not exist or the call is wrong.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run specs written in Lua (*_spec.lua, busted's vocabulary).",
        discussion: """
            PATHs are spec files or directories searched recursively (default: spec/ when it \
            exists, else the current directory). Files run in path order, each in its own Lua \
            state with the wayfinder module; tests run in the order written unless --shuffle. \
            Each step (setup, before_each, the test, after_each, teardown) has the time budget \
            and memory limit below. The last line is "N passed, N failed" (", N pending" when \
            any).
            """
    )

    @Argument(help: "Spec files or directories.")
    var paths: [String] = []

    @Flag(help: "Shuffle the tests within each block (see --seed).")
    var shuffle = false

    @Option(help: "The shuffle's seed, to run an order again (implies --shuffle).")
    var seed: UInt64?

    @Flag(name: .shortAndLong, help: "Print each test's name and outcome as it runs.")
    var verbose = false

    @Flag(help: "Print the results in TAP version 13 instead.")
    var tap = false

    @Option(help: "Also write the results as JUnit XML to this file.")
    var junit: String?

    @Option(help: "Run only the tests whose full name contains this text.")
    var filter: String?

    @Flag(help: "List the tests (file: full name) without running them.")
    var list = false

    @OptionGroup var host: HostOptions

    func run() throws {
        let roots = paths.isEmpty ? [FileManager.default.fileExists(atPath: "spec") ? "spec" : "."] : paths
        let files: [String]
        do { files = try SpecRunner.discover(roots) } catch {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        let seed = seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil)
        var runner = SpecRunner(limits: host.limits, shuffleSeed: seed, filter: filter, printSink: { Terminal.print($0) })
        runner.roots = paths
        if list { return try listTests(files, runner) }

        var report = TestReport(style: tap ? .tap : verbose ? .verbose : isatty(STDOUT_FILENO) == 1 ? .progress : .quiet)
        if let seed, !tap { Terminal.print("Shuffled with --seed \(seed)") }
        report.begin()
        for file in files {
            runner.run(file) { report.add($0) }
        }
        report.finish()
        if let junit {
            do {
                try Data(JUnitReport.xml(report.results).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                Terminal.error("cannot write \(junit): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        if files.isEmpty { Terminal.error("no *_spec.lua files under \(roots.joined(separator: ", "))") }
        if report.failed > 0 || files.isEmpty { throw ExitCode(1) }
    }

    private func listTests(_ files: [String], _ runner: SpecRunner) throws {
        var failed = false
        for file in files {
            let (names, failure) = runner.list(file)
            if let failure {
                failed = true
                Terminal.error("\(file): \(failure.message ?? "cannot load")")
            }
            for name in names { Terminal.print("\(file): \(name)") }
        }
        if failed { throw ExitCode(1) }
    }
}

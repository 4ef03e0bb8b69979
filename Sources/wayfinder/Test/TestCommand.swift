import ArgumentParser
import Foundation
import WayfinderLua
import WayfinderTesting
import WayfinderUpdates

/// `wayfinder test [PATH...]`: runs `*_spec.lua` files written in busted's vocabulary, each in
/// a fresh app state. Exit status 1 when a test failed or errored (or nothing ran), 2 when a path
/// does not exist or the call is wrong.
struct TestCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Run specs written in Lua (*_spec.lua, busted's vocabulary).",
        discussion: """
            PATHs are spec files or directories searched recursively (default: ./spec, as \
            busted's). Files run in path order, each in its own Lua state with the wayfinder \
            module, busted's vocabulary and luassert; tests run in the order written unless \
            --shuffle. Each step (a describe body, setup, before_each, the test, after_each, \
            teardown) has the time budget and memory limit below. The last line is "N passed, \
            N failed" (", N pending" when any).

            Example:
              wayfinder test spec --filter ordering
            """
    )

    @Argument(help: "Spec files or directories.")
    var paths: [String] = []

    @Flag(help: "Shuffle the files and the tests within each block, as busted does (see --seed).")
    var shuffle = false

    @Option(help: "The shuffle's seed, to run an order again (implies --shuffle).")
    var seed: UInt64?

    @Flag(name: .shortAndLong, help: "Print each test's name and outcome as it runs.")
    var verbose = false

    @Flag(help: "Print the results in TAP version 13 instead (as --output=TAP).")
    var tap = false

    @Option(help: "Also write the results as JUnit XML to this file.")
    var junit: String?

    @Option(name: .shortAndLong, help: "How to print the results: plain (the default; also plainTerminal, utfTerminal), TAP, or junit (XML on standard output).")
    var output: OutputFormat?

    @Option(help: "Run only the tests whose full name matches this Lua pattern (repeatable: any of them).")
    var filter: [String] = []

    @Option(name: .customLong("filter-out"), help: "Skip the tests whose full name matches this Lua pattern (repeatable).")
    var filterOut: [String] = []

    @Option(name: .shortAndLong, help: "Run only the tests tagged (#tag in their full name) with one of these (comma-separated, repeatable).")
    var tags: [String] = []

    @Option(name: .customLong("exclude-tags"), help: "Skip the tests tagged with one of these (comma-separated, repeatable).")
    var excludeTags: [String] = []

    @Flag(help: "Report which routes of the apps the specs launched were opened, and which never were.")
    var coverage = false

    @Flag(help: "Run the specs, then rerun those whose files or apps change on save (Enter reruns all; q or the end of input stops).")
    var watch = false

    @Flag(help: "With --watch: look for changes by polling modification times instead of inotify.")
    var poll = false

    @Flag(help: "List the tests (file: full name) without running them.")
    var list = false

    @Option(name: .shortAndLong, help: "Run the files in directories whose names match this Lua pattern (busted's; default: names ending in _spec.lua).")
    var pattern: String?

    @Option(name: [.customShort("m"), .long], help: "package.path templates searched before ./?.lua;./?/init.lua (default: ./src/?.lua;./src/?/?.lua;./src/?/init.lua); given here they may lead outside the project, to installed modules.")
    var lpath: String?

    @OptionGroup var host: HostOptions

    @OptionGroup var updates: UpdateOptions

    /// busted's --output names that Wayfinder prints.
    enum OutputFormat: String, ExpressibleByArgument {
        case plain, plainTerminal, utfTerminal, TAP, junit

        init?(argument: String) {
            switch argument.lowercased() {
            case "plain", "plainterminal", "utfterminal": self = .plain
            case "tap": self = .TAP
            case "junit": self = .junit
            default: return nil
            }
        }
    }

    func validate() throws {
        if poll && !watch { throw ValidationError("--poll chooses how --watch looks for changes; give --watch too") }
        if watch && (list || coverage || tap || junit != nil || (output != nil && output != .plain) || shuffle || seed != nil) {
            throw ValidationError("--watch prints plain results and cannot be combined with --list, --coverage, --tap, --output, --junit or --shuffle")
        }
    }

    var selection: SpecSelection {
        func words(_ lists: [String]) -> [String] {
            lists.flatMap { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) } }
        }
        return SpecSelection(filters: filter, filtersOut: filterOut, tags: words(tags), excludedTags: words(excludeTags))
    }

    func run() throws {
        guard SpecRunner.assertionsAvailable else {
            Terminal.error(SpecRunner.assertionsMissing)
            throw ExitCode(2)
        }
        if let junit, let problem = Self.reportTargetProblem(junit) {
            Terminal.error("cannot write the JUnit report to \(junit): \(problem)")
            throw ExitCode(2)
        }
        var config: BustedConfig
        do {
            config = try BustedConfig.load(limits: host.limits)
            if let pattern { try config.usePattern(pattern, limits: host.limits) }
        } catch {
            Terminal.error(pattern == nil ? "cannot read .busted: \(error.message)" : "--pattern or .busted: \(error.message)")
            throw ExitCode(2)
        }
        if let lpath { config.lpath = lpath }
        // --time-limit wins over .busted's time_limit.
        var limits = host.limits
        if host.timeLimitOption == nil, let configured = config.timeLimit { limits.timeBudget = .milliseconds(configured) }
        do { try selection.checkPatterns(limits: host.limits) } catch {
            Terminal.error(error.message)
            throw ExitCode(2)
        }
        let roots = paths.isEmpty ? config.roots : paths
        if paths.isEmpty && !roots.contains(where: { FileManager.default.fileExists(atPath: $0) }) {
            Terminal.error("no \(roots.map { "./" + $0 }.joined(separator: ", ")) here (busted's default root, or .busted's ROOT); name the spec files or directories to run")
            throw ExitCode(1)
        }
        var files: [String]
        do { files = try SpecRunner.discover(roots, isSpecFile: config.isSpecFile) } catch {
            Terminal.error("\(error)")
            throw ExitCode(2)
        }
        let format = tap ? .TAP : output ?? .plain
        let seed = seed ?? (shuffle ? UInt64.random(in: 1...999_999) : nil)
        if let seed {
            // As busted's --shuffle: the files too, with the same seed.
            do { files = try SpecRunner.shuffledFiles(files, seed: seed, limits: host.limits) } catch {
                Terminal.error("cannot shuffle the files: \(error.message)")
                throw ExitCode(2)
            }
        }
        // What specs print goes to standard error, so it never mixes into TAP or XML.
        var runner = SpecRunner(limits: limits, shuffleSeed: seed, selection: selection, packagePath: config.packagePath,
                                printSink: Terminal.scriptOutput)
        // Only the command line widens what specs may read: .busted's ROOTs lie inside the project.
        runner.roots = paths
        // The command line's --lpath may lead outside the project, as busted's does; .busted's may not.
        runner.files = SpecFiles(roots: paths, lpath: lpath)
        defer { runner.files.removeTemporary() }
        let routeCoverage = coverage ? RouteCoverage() : nil
        runner.coverage = routeCoverage
        if let bundles = try updates.bundleUpdates() { runner.appSource = { bundles.newestApp(shipped: $0) } }
        if list { return try listTests(files, runner) }
        if watch {
            var watching = SpecWatch(runner: runner, roots: roots, isSpecFile: config.isSpecFile, polling: poll)
            watching.run()
        }

        let style: TestReport.Style
        switch format {
        case .TAP: style = .tap
        case .junit: style = .quiet
        default: style = verbose ? .verbose : isatty(STDOUT_FILENO) == 1 ? .progress : .quiet
        }
        var report = TestReport(style: style, printsSummary: format != .junit)
        if let seed {
            let line = "Shuffled with --seed \(seed)"
            if format == .plain { Terminal.print(line) } else { FileHandle.standardError.write(Data((line + "\n").utf8)) }
        }
        report.begin()
        for file in files {
            runner.run(file) { report.add($0) }
        }
        report.finish()
        if format == .junit { Terminal.write(JUnitReport.xml(report.results)) }
        if let routeCoverage {
            // Beside TAP or XML, the report goes to standard error so the output stays parseable.
            for line in routeCoverage.lines {
                if format == .plain { Terminal.print(line) } else { FileHandle.standardError.write(Data((line + "\n").utf8)) }
            }
        }
        if let junit {
            if let problem = Self.reportTargetProblem(junit) {
                Terminal.error("cannot write the JUnit report to \(junit): \(problem)")
                throw ExitCode(1)
            }
            do {
                try Data(JUnitReport.xml(report.results).utf8).write(to: URL(fileURLWithPath: junit))
            } catch {
                Terminal.error("cannot write \(junit): \(error.localizedDescription)")
                throw ExitCode(1)
            }
        }
        if files.isEmpty { Terminal.error("no *_spec.lua files under \(roots.joined(separator: ", "))") }
        if !files.isEmpty && report.results.isEmpty { Terminal.error("no test matches the selection (\(describeSelection))") }
        if report.failed > 0 || report.results.isEmpty { throw ExitCode(1) }
    }

    /// Why the report cannot go to `path`, or nil: it must be a regular file (or a link to one) or
    /// a new file in a directory that exists. Anything else (a directory, a FIFO, which would
    /// block the write, a device) is refused before the tests run and left as it is.
    static func reportTargetProblem(_ path: String) -> String? {
        var info = stat()
        if stat(path, &info) == 0 {
            return (info.st_mode & S_IFMT) == S_IFREG ? nil : "it exists and is not a regular file; it was left as it is"
        }
        let directory = (path as NSString).deletingLastPathComponent
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.isEmpty ? "." : directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "its directory \(directory) does not exist"
        }
        return nil
    }

    /// The options that chose the tests, for the message when none was chosen.
    private var describeSelection: String {
        var parts = filter.map { "--filter \($0)" } + filterOut.map { "--filter-out \($0)" }
        parts += tags.map { "--tags \($0)" } + excludeTags.map { "--exclude-tags \($0)" }
        return parts.isEmpty ? "the files hold no test" : parts.joined(separator: " ")
    }

    private func listTests(_ files: [String], _ runner: SpecRunner) throws {
        var failed = false
        var listed = 0
        for file in files {
            let (names, failure) = runner.list(file)
            if let failure {
                failed = true
                Terminal.error("\(file): \(failure.message ?? "cannot load")")
            }
            for name in names { Terminal.print("\(file): \(name)") }
            listed += names.count
        }
        if listed == 0 && !failed { Terminal.error("no test matches the selection (\(describeSelection))") }
        if failed || listed == 0 { throw ExitCode(1) }
    }
}

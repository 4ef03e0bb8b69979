import Foundation
import Wayfinder
import WayfinderLua

/// Runs spec files (`*_spec.lua`) as `wayfinder test` does: each file in a fresh app state with
/// the `wayfinder` module and busted's vocabulary (lua/wayfinder/spec.lua). Loading a file
/// records its blocks and tests; then every step (a setup, a before_each, the test, an
/// after_each, a teardown) is its own call from Swift, with the host's time budget and memory
/// limit, so a test that loops or eats memory fails alone and the rest still run.
package struct SpecRunner {
    package var limits: LuaLimits
    /// Shuffles the tests (and blocks) within each block when set, as busted's --seed does (and
    /// the files, through ``shuffledFiles(_:seed:)``).
    package var shuffleSeed: UInt64?
    /// Which tests run, by their full names and `#tags`.
    package var selection: SpecSelection
    /// The `package.path` each spec file starts with (templates relative to the working
    /// directory, searched by `require`).
    package var packagePath: String
    /// Where the specs' `print` goes.
    package var printSink: (String) -> Void
    /// Directories (the paths given on the command line) whose apps `wf.testing` may launch and
    /// copy, besides each spec's own directory (see ``Workspace``).
    package var roots: [String] = []
    /// The files specs read and write through `io` and `lfs`, and the installed modules
    /// `require` reads (see ``SpecFiles``); its temporary directory goes when the run ends.
    package var files = SpecFiles()
    /// Collects which routes the apps the specs launch opened (`--coverage`); nil counts nothing.
    package var coverage: RouteCoverage?
    /// The app to run for each app a spec launches, given as its path makes it (`wayfinder test
    /// --updates`: the newest good bundle installed for it); nil runs each as it is.
    package var appSource: ((AppSource) -> AppSource)?

    package init(limits: LuaLimits = .standard, shuffleSeed: UInt64? = nil, selection: SpecSelection = SpecSelection(),
                packagePath: String = BustedConfig().packagePath, printSink: @escaping (String) -> Void = { _ in }) {
        self.limits = limits
        self.shuffleSeed = shuffleSeed
        self.selection = selection
        self.packagePath = packagePath
        self.printSink = printSink
    }

    /// Whether luassert (and say) are installed where spec files can load them.
    package static var assertionsAvailable: Bool { SpecBinding.assertionRoot != nil }

    /// What to tell the user when luassert is missing.
    package static var assertionsMissing: String { SpecBinding.missingLuassert }

    /// The spec files under `paths` (a directory is searched recursively for names `isSpecFile`
    /// accepts, by default `*_spec.lua`, skipping hidden files and directories as busted does; a
    /// file is taken as it is), each once, in path order. Fails naming a path that does not exist.
    package static func discover(_ paths: [String], isSpecFile: (String) -> Bool = { $0.hasSuffix("_spec.lua") }) throws -> [String] {
        var found = [String]()
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw SpecRunnerError.notFound(path)
            }
            guard isDirectory.boolValue else {
                found.append(path)
                continue
            }
            let base = path.hasSuffix("/") ? String(path.dropLast()) : path
            for case let relative as String in FileManager.default.enumerator(atPath: path)?.allObjects ?? []
            where isSpecFile(relative) && !isHidden(relative) {
                found.append(base == "." ? relative : base + "/" + relative)
            }
        }
        var seen = Set<String>()
        return found.sorted().filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// Whether a path found below a directory given to search is hidden, by busted's rule: the
    /// path below the root holds `/%.%w+.%w+` (a component starting with a dot and a letter or
    /// digit, then at least a character and a letter or digit more: `.hidden/`, `.a_spec.lua`).
    static func isHidden(_ relative: String) -> Bool {
        let text = Array(("/" + relative).utf8)
        for slash in text.indices where text[slash] == UInt8(ascii: "/") && slash + 2 < text.count && text[slash + 1] == UInt8(ascii: ".") {
            // After the dot: a run of word bytes (at least one), any one byte, then a word byte.
            var end = slash + 2
            while end < text.count && isWordByte(text[end]) {
                end += 1
                if end + 1 < text.count && isWordByte(text[end + 1]) { return true }
            }
        }
        return false
    }

    /// Lua's %w in the C locale: an ASCII letter or digit.
    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    /// The full names of the tests in `file` (after the selection), without running them (their
    /// describe bodies run, as busted's --list runs them); or the failure to load the file.
    package func list(_ file: String) -> (names: [String], failure: SpecResult?) {
        switch load(file) {
        case .failed(let failure): return ([], failure)
        case .loaded(let loaded):
            var session = Session(runner: self, file: file, loaded: loaded)
            return (session.names(Self.rootBlock, path: []), nil)
        }
    }

    /// Runs every test of `file`, handing each result to `report` as it comes.
    @discardableResult
    package func run(_ file: String, report: (SpecResult) -> Void = { _ in }) -> [SpecResult] {
        switch load(file) {
        case .failed(let failure):
            report(failure)
            return [failure]
        case .loaded(let loaded):
            var session = Session(runner: self, file: file, loaded: loaded)
            session.runBlock(Self.rootBlock, path: [], befores: [], afters: [], report: report)
            return session.results
        }
    }

    /// `files` in the order busted's --shuffle runs them under `seed`: the spec module's own
    /// shuffle (lua/wayfinder/shuffle.lua) over their places.
    package static func shuffledFiles(_ files: [String], seed: UInt64, limits: LuaLimits = .standard) throws(ScriptError) -> [String] {
        guard let module = EmbeddedSpecLua.files["shuffle.lua"] else { return files }
        let state = try LuaState(limits: limits)
        let answer = try state.run(source: String(decoding: module, as: UTF8.self), chunkName: "=wayfinder/shuffle.lua")
        guard case .handle(let shuffle)? = answer.first else { return files }
        let places = Value.array(files.indices.map { .int(Int64($0 + 1)) })
        let order = try state.call(shuffle, [places, .int(Int64(bitPattern: seed))]).first
        let indices = items(order).compactMap { value -> Int? in if case .int(let index) = value { return Int(index) - 1 } else { return nil } }
        guard indices.count == files.count, Set(indices) == Set(files.indices) else { return files }
        return indices.map { files[$0] }
    }

    /// The block of a file's top level (lua/wayfinder/spec.lua numbers blocks from 1).
    static let rootBlock: Int64 = 1

    // MARK: Loading

    /// A loaded spec file: its state and the spec module's entry points the runner calls.
    struct Loaded {
        /// What the file's state lends beyond an app's (it embeds the host).
        let file: SpecFile
        let host: WayfinderHost
        let block: Value.Handle
        let expand: Value.Handle
        let leave: Value.Handle
        let beginTest: Value.Handle
        let endTest: Value.Handle
        let afterTest: Value.Handle
        let matches: Value.Handle
        /// Says which block's hook runs next (its globals land in that block's environment).
        let enter: Value.Handle
    }

    /// Said after a step's spent time budget: how to give the steps more.
    static let moreTime = " (each step may be given more: --time-limit MS on the command line, or time_limit = MS in .busted's default task)"

    /// The name a file that did not load is reported under: it counts as one failed test.
    package static let loadingName = "(loading the file)"

    enum LoadOutcome {
        case loaded(Loaded)
        /// The file did not load (a syntax error, an error at its top level): one failure.
        case failed(SpecResult)
    }

    private func load(_ file: String) -> LoadOutcome {
        let prelude = "return require('wayfinder.spec')._install(_ENV, \(Value.string(packagePath)))"
        let entryPoints = ["_block", "_expand", "_leave", "_begin_test", "_end_test", "_after_test", "_matches", "_enter"]
        do {
            let workspace = Workspace(specFile: file, roots: roots)
            workspace.coverage = coverage
            workspace.appSource = appSource
            let specFile = SpecFile(workspace: workspace, files: files)
            let loader = AppLoader(source: try AppSource(path: file), limits: limits, printSink: printSink, prelude: prelude,
                                   libraries: [("wayfinder.native.testing", TestingBinding.functions + ScreenActionBinding.functions),
                                               ("wayfinder.native.spec", SpecBinding.functions),
                                               ("wayfinder.native.spec_files", SpecFilesBinding.functions)],
                                   compiledIn: SpecModules.compiledIn)
            let host = try WayfinderHost(loader: loader, embedder: specFile)
            let source = "local spec = require 'wayfinder.spec'; return " + entryPoints.map { "spec.\($0)" }.joined(separator: ", ")
            let answer = try host.app.state.run(source: source, chunkName: "=wayfinder.spec")
            let handles = answer.compactMap { value -> Value.Handle? in if case .handle(let handle) = value { return handle } else { return nil } }
            guard handles.count == entryPoints.count else {
                return .failed(SpecResult(file: file, name: Self.loadingName, status: .errored, message: "the spec module did not load"))
            }
            return .loaded(Loaded(file: specFile, host: host, block: handles[0], expand: handles[1], leave: handles[2], beginTest: handles[3],
                                  endTest: handles[4], afterTest: handles[5], matches: handles[6], enter: handles[7]))
        } catch let error as AppLoadError {
            if case .script(let script) = error {
                let message = script.kind == .timeout ? script.message + Self.moreTime : script.message
                return .failed(SpecResult(file: file, name: Self.loadingName, status: .errored, message: message, traceback: script.traceback))
            }
            return .failed(SpecResult(file: file, name: Self.loadingName, status: .errored, message: error.description))
        } catch {
            return .failed(SpecResult(file: file, name: Self.loadingName, status: .errored, message: "\(error)"))
        }
    }

    // MARK: The tree

    static func items(_ value: Value?) -> [Value] {
        value?.arrayValue ?? []
    }

    static func functions(_ value: Value?) -> [Value.Handle] {
        items(value).compactMap { if case .handle(let handle) = $0 { return handle } else { return nil } }
    }

    static func fullName(_ path: [String], _ name: String) -> String {
        (path + [name]).joined(separator: " ")
    }

    /// FNV-1a: the same file gets the same shuffle for the same seed in every process.
    static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return hash
    }
}

/// Why specs could not be found.
package enum SpecRunnerError: Error, CustomStringConvertible {
    case notFound(String)

    package var description: String {
        switch self {
        case .notFound(let path): return "no such file or directory: \(path)"
        }
    }
}

import Foundation
import Wayfinder

/// Runs spec files (`*_spec.lua`) as `wayfinder test` does: each file in a fresh app state with
/// the `wayfinder` module and busted's vocabulary (lua/wayfinder/spec.lua). Loading a file
/// records its blocks and tests; then every step (a setup, a before_each, the test, an
/// after_each, a teardown) is its own call from Swift, with the host's time budget and memory
/// limit, so a test that loops or eats memory fails alone and the rest still run.
public struct SpecRunner {
    public var limits: LuaLimits
    /// Shuffles the tests (and blocks) within each block when set.
    public var shuffleSeed: UInt64?
    /// Runs only the tests whose full name contains this text.
    public var filter: String?
    /// Where the specs' `print` goes.
    public var printSink: (String) -> Void
    /// Directories (the paths given on the command line) whose apps `wf.testing` may launch and
    /// copy, besides each spec's own directory (see ``Workspace``).
    public var roots: [String] = []

    public init(limits: LuaLimits = .standard, shuffleSeed: UInt64? = nil, filter: String? = nil,
                printSink: @escaping (String) -> Void = { _ in }) {
        self.limits = limits
        self.shuffleSeed = shuffleSeed
        self.filter = filter
        self.printSink = printSink
    }

    /// The `*_spec.lua` files under `paths` (a directory is searched recursively; a file is
    /// taken as it is), each once, in path order. Fails naming a path that does not exist.
    public static func discover(_ paths: [String]) throws -> [String] {
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
            where relative.hasSuffix("_spec.lua") {
                found.append(base == "." ? relative : base + "/" + relative)
            }
        }
        var seen = Set<String>()
        return found.sorted().filter { seen.insert(URL(fileURLWithPath: $0).standardizedFileURL.path).inserted }
    }

    /// The full names of the tests in `file` (after the filter), without running them; or the
    /// failure to load the file.
    public func list(_ file: String) -> (names: [String], failure: SpecResult?) {
        switch load(file) {
        case .failed(let failure): return ([], failure)
        case .loaded(let loaded):
            return (selectedTests(in: loaded.tree, path: []), nil)
        }
    }

    /// Runs every test of `file`, handing each result to `report` as it comes.
    @discardableResult
    public func run(_ file: String, report: (SpecResult) -> Void = { _ in }) -> [SpecResult] {
        switch load(file) {
        case .failed(let failure):
            report(failure)
            return [failure]
        case .loaded(let loaded):
            let generator = shuffleSeed.map { ShuffleGenerator(seed: $0 ^ Self.stableHash(file)) }
            var session = Session(runner: self, file: file, loaded: loaded, generator: generator)
            session.run(loaded.tree, path: [], befores: [], afters: [], report: report)
            return session.results
        }
    }

    // MARK: Loading

    struct Loaded {
        let host: AppHost
        let tree: Value
        let takeFailure: Value.Handle
    }

    /// The name a file that did not load is reported under: it counts as one failed test.
    public static let loadingName = "(loading the file)"

    enum LoadOutcome {
        case loaded(Loaded)
        /// The file did not load (a syntax error, an error at its top level): one failure.
        case failed(SpecResult)
    }

    private func load(_ file: String) -> LoadOutcome {
        let prelude = "require('wayfinder.spec')._install(_ENV)"
        do {
            let host = try AppHost(path: file, limits: limits, printSink: printSink, prelude: prelude,
                                   libraries: [("wayfinder.native.testing", TestingBinding.functions)])
            host.workspace = Workspace(specFile: file, roots: roots)
            let answer = try host.state.run(source: "local spec = require 'wayfinder.spec'; return spec._tree(), spec._take_failure",
                                            chunkName: "=wayfinder.spec")
            guard answer.count == 2, case .handle(let takeFailure) = answer[1] else {
                return .failed(SpecResult(file: file, name: Self.loadingName, status: .errored, message: "the spec module did not load"))
            }
            return .loaded(Loaded(host: host, tree: answer[0], takeFailure: takeFailure))
        } catch let error as AppLoadError {
            if case .script(let script) = error {
                return .failed(SpecResult(file: file, name: Self.loadingName, status: .errored, message: script.message, traceback: script.traceback))
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

    func selected(_ name: String) -> Bool {
        guard let filter, !filter.isEmpty else { return true }
        return name.contains(filter)
    }

    /// The full names of the tests in `block` and its inner blocks that the filter selects.
    func selectedTests(in block: Value, path: [String]) -> [String] {
        Self.items(block["children"]).flatMap { child -> [String] in
            let name = child["name"]?.stringValue ?? "?"
            if child["kind"] == "test" { return selected(Self.fullName(path, name)) ? [Self.fullName(path, name)] : [] }
            return selectedTests(in: child, path: path + [name])
        }
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
public enum SpecRunnerError: Error, CustomStringConvertible {
    case notFound(String)

    public var description: String {
        switch self {
        case .notFound(let path): return "no such file or directory: \(path)"
        }
    }
}

/// SplitMix64: shuffles that a seed reproduces.
struct ShuffleGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

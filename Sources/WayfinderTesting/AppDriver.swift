import Foundation
import Wayfinder
import WayfinderLua

/// An app a spec drives (`wf.testing.launch`, docs/lua-api.md): loaded into its own Lua state as
/// `wayfinder run` loads it, with its navigation state in a file (a temporary one unless the
/// spec names one), so a spec can relaunch it, hot reload it from disk, and look at what it
/// shows. Every answer is plain data.
final class AppDriver {
    let path: String
    let limits: LuaLimits
    let printSink: (String) -> Void
    let stateFile: String
    /// The directory holding a temporary state file, removed when the driver closes.
    private var temporaryDirectory: String?
    private(set) var host: WayfinderHost?
    /// Controllers made by hosts a reload replaced, since the last launch.
    private var constructedBefore = 0
    private(set) var warnings: [String] = []
    private(set) var launches = 0
    private(set) var reloads = 0
    /// Told of every host this driver runs, so `--coverage` sees the routes it opens, counted
    /// for the app named `coverageName`.
    let coverage: RouteCoverage?
    let coverageName: String
    /// What runs in place of the app at `path` (``SpecRunner/appSource``).
    let appSource: ((AppSource) -> AppSource)?
    /// The spec's clock (`clock = fn` in launch's options), in seconds; nil for the system's.
    private let clockSource: (() throws -> Double)?
    /// Seconds `advance` moved the clock on, added to what the source gives.
    private(set) var advanced = 0.0
    /// The time the host reads, read from the source at every operation (launch, a navigation),
    /// so a clock that fails fails that operation, not the host.
    private var now = Date()
    /// When the spec last used the app. An app saves its state after every command, so a
    /// relaunch or close saves it as of then: time `advance` adds after it is time the app sat
    /// unused, and counts toward its state's expiration.
    private var lastUsed = Date()

    /// `link`, when given, is a link from outside the app handled once it launched, on the
    /// restored tree, as `wayfinder run --link` hands one (`launchingWith(link:)`).
    init(path: String, stateFile: String?, limits: LuaLimits, clock: (() throws -> Double)? = nil, link: String? = nil,
         coverage: RouteCoverage? = nil, coverageName: String? = nil, appSource: ((AppSource) -> AppSource)? = nil,
         printSink: @escaping (String) -> Void) throws {
        self.path = path
        self.appSource = appSource
        self.coverage = coverage
        self.coverageName = coverageName ?? path
        self.clockSource = clock
        self.limits = limits
        self.printSink = printSink
        if let stateFile {
            if let problem = FileStateStore(path: stateFile).problem { throw WorkspaceError("cannot use the state file \(problem)") }
            self.stateFile = stateFile
        } else {
            let directory = try Workspace.makeTemporaryDirectory(prefix: "wayfinder-state")
            temporaryDirectory = directory
            self.stateFile = directory + "/state.json"
        }
        do {
            try start()
        } catch {
            removeTemporaryFiles()
            throw error
        }
        if let link { try launchingWith(link: link) }
    }

    /// The link a launch was given, through the app's one door for links from outside
    /// (`WayfinderHost.handleLink`). One a guard keeps waiting is a launched app whose link waits; one
    /// refused (not external, malformed, no route) or failing ends the app as `close` does (the
    /// state saved as the launch left it) and fails the launch with the link's reason.
    private func launchingWith(link: String) throws {
        do {
            try running().handleLink(link)
        } catch NavigationError.waiting {
            return
        } catch {
            var reason = OpenFailure.reason(error, url: link)
            do { try close() } catch { reason += "; and saving the state as the launch left it failed: \(error)" }
            throw LinkRefusal(description: reason)
        }
    }

    struct LinkRefusal: Error, CustomStringConvertible {
        let description: String
    }

    deinit {
        removeTemporaryFiles()
    }

    /// Loads the app and launches it: the saved state restored, else its tabs or root.
    /// `time` is the clock's reading when the caller has taken it already.
    private func start(at time: Date? = nil) throws {
        now = try time ?? readClock()
        let shipped = try AppSource(path: path)
        var configuration = WayfinderHost.Configuration(app: appSource?(shipped) ?? shipped)
        configuration.limits = limits
        configuration.printSink = printSink
        let host = try WayfinderHost(configuration)
        host.app.clock = { [unowned self] in now }
        coverage?.watch(host.app, as: coverageName)
        host.stateStore = FileStateStore(path: stateFile)
        host.warn = { [unowned self] in record($0) }
        host.openExternal = { [unowned self] in record("opened outside the app: " + $0) }
        try host.launch()
        self.host = host
        lastUsed = now
        constructedBefore = 0
        launches += 1
    }

    /// The running app, or why there is none.
    func running() throws(ScriptError) -> WayfinderHost {
        guard let host else { throw ScriptError(kind: .runtime, message: "the app \(path) is closed") }
        return host
    }

    /// Persists the tree, ends the app, and starts it again from the same scripts and state file.
    func relaunch() throws {
        let host = try running()
        // Read first: a clock that fails then leaves the app running as it was.
        let time = try readClock()
        now = lastUsed
        try host.persist()
        self.host = nil
        try start(at: time)
    }

    /// A hot reload: the app made again from disk and swapped in, or left as it was.
    func reload() throws -> ReloadReport {
        let host = try running()
        let constructed = host.app.constructedCount
        let report = try host.reload()
        coverage?.watch(host.app, as: coverageName)
        report.warnings.forEach(record)
        constructedBefore += constructed
        reloads += 1
        return report
    }

    /// Moves the clock on by `seconds` (at least 0: time never runs back).
    func advance(_ seconds: Double) throws {
        _ = try running()
        guard seconds.isFinite, seconds >= 0 else { throw ClockError("advance needs a finite number of seconds >= 0, got \(seconds)") }
        advanced += seconds
    }

    /// Reads the clock before a navigation of the spec's.
    func use() throws {
        _ = try running()
        now = try readClock()
        lastUsed = now
    }

    /// The spec's clock (or the system's), moved on by what `advance` added.
    private func readClock() throws -> Date {
        let seconds = try clockSource?() ?? Date().timeIntervalSince1970
        guard seconds.isFinite else { throw ClockError("the clock gave \(seconds), not a finite number of seconds") }
        return Date(timeIntervalSince1970: seconds + advanced)
    }

    struct ClockError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The most warnings kept, the longest kept whole, and the most bytes kept in all: an app that
    /// warns in a loop (its warnings name URLs and keys it chose) cannot grow the list without end.
    static let warningLimit = 1000
    static let warningLength = 64 * 1024
    static let warningBytes = 1 << 20
    private var warningBytesKept = 0
    private var warningsLeftOut = false

    private func record(_ warning: String) {
        guard !warningsLeftOut else { return }
        let kept = warning.utf8.count <= Self.warningLength ? warning : String(decoding: warning.utf8.prefix(Self.warningLength), as: UTF8.self) + " (cut)"
        guard warnings.count < Self.warningLimit, kept.utf8.count <= Self.warningBytes - warningBytesKept else {
            warnings.append("(more warnings left out)")
            warningsLeftOut = true
            return
        }
        warnings.append(kept)
        warningBytesKept += kept.utf8.count
    }

    var stats: Value {
        [
            "constructed": .int(Int64(constructedBefore + (host?.app.constructedCount ?? 0))),
            "launches": .int(Int64(launches)),
            "reloads": .int(Int64(reloads)),
            "warnings": .array(warnings.map(Value.string)),
            "running": .bool(host != nil),
        ]
    }

    /// Saves the state as an app does when it ends, and ends it. Closing twice does nothing.
    func close() throws {
        guard let host else { return }
        now = lastUsed
        defer {
            self.host = nil
            removeTemporaryFiles()
        }
        try host.persist()
    }

    private func removeTemporaryFiles() {
        if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) }
        temporaryDirectory = nil
    }
}

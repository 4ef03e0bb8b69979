import Foundation
import Wayfinder
@_spi(Benchmarks) import WayfinderLua

struct LaunchResult {
    /// A new WayfinderHost for the 200-route app, plus the restore of 4 tabs × 25 entries, median.
    let milliseconds: Double
    /// Of which: `WayfinderHost(_:)` (a Lua state, the bundled modules, the app's scripts).
    let hostMilliseconds: Double
    /// Of which: `launch()` (reading the state file, the restore, the visible controller).
    let restoreMilliseconds: Double
    /// Constructors run by the launch (the app counts them in Lua).
    let constructed: Int
    let entriesRestored: Int
}

/// Launch: a new host for a generated 200-route app and the restore of a saved tree of 4 tabs of
/// 25 entries each; only the visible controller should be made.
struct LaunchBench {
    static let tabCount = 4
    static let entriesPerTab = 25

    let rounds: Int

    func run() throws -> LaunchResult {
        let fixture = try LaunchFixture()
        defer { fixture.remove() }
        var total = [Double](), hostTimes = [Double](), restoreTimes = [Double]()
        var constructed = -1
        var entries = 0
        for round in 0...rounds {
            let launch = try fixture.launch()
            constructed = launch.constructed
            entries = launch.entries
            // Round 0 warms the file cache and the allocator; it is not counted.
            if round > 0 {
                hostTimes.append(launch.hostNanoseconds / 1e6)
                restoreTimes.append(launch.restoreNanoseconds / 1e6)
                total.append((launch.hostNanoseconds + launch.restoreNanoseconds) / 1e6)
            }
        }
        return LaunchResult(milliseconds: median(total), hostMilliseconds: median(hostTimes), restoreMilliseconds: median(restoreTimes),
                            constructed: constructed, entriesRestored: entries)
    }
}

/// The launch bench's app and saved state, written to a temporary directory once, and one launch
/// of them.
struct LaunchFixture {
    let directory: URL
    let statePath: String

    init() throws {
        directory = try BenchApps.temporaryDirectory("launch")
        let routes = RouteSet(routeCount: 200, urlCount: LaunchBench.tabCount * LaunchBench.entriesPerTab * 2, seed: 200)
        let tabRoots = (0..<LaunchBench.tabCount).map { "app://h\($0)/s0" }
        try BenchApps.write(BenchApps.launchApp(routes: routes, tabs: tabRoots), to: directory.appendingPathComponent("app.lua"))

        // The saved tree: each tab its root screen and 24 screens opened from it (URLs that hit).
        statePath = directory.appendingPathComponent("state.json").path
        let hits = try Self.hitURLs(routes: routes, directory: directory)
        var tabs = [[NavigationState.Entry]]()
        for tab in 0..<LaunchBench.tabCount {
            var stack = [NavigationState.Entry(url: tabRoots[tab])]
            for index in 1..<LaunchBench.entriesPerTab {
                stack.append(NavigationState.Entry(url: hits[(tab * LaunchBench.entriesPerTab + index) % hits.count]))
            }
            tabs.append(stack)
        }
        let saved = NavigationState(app: "bench-launch", mode: .all, root: .tabs(tabs, selected: 2))
        try FileStateStore(path: statePath).save(saved)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }

    /// A new host (`WayfinderHost(_:)`: a Lua state, the bundled modules, the app's scripts), then
    /// `launch()` (the state file read, the restore, the visible controller), each timed.
    func launch() throws -> (hostNanoseconds: Double, restoreNanoseconds: Double, constructed: Int, entries: Int) {
        var host: WayfinderHost?
        let hostTime = try timed { host = try BenchApps.load(directory) }
        guard let host else { throw BenchError("no host") }
        host.stateStore = FileStateStore(path: statePath)
        let restoreTime = try timed { try host.launch() }
        guard case .int(let count) = try host.luaGlobal("constructed") else {
            throw BenchError("the launch app's constructor count is missing")
        }
        let entries = host.tree.entryCount
        guard entries == LaunchBench.tabCount * LaunchBench.entriesPerTab else {
            throw BenchError("restored \(entries) entries, not \(LaunchBench.tabCount * LaunchBench.entriesPerTab)")
        }
        return (hostTime, restoreTime, Int(count), entries)
    }

    /// URLs of the route set that the app opens as screens, found with a table of the same
    /// patterns made in Swift: no Lua state is made before the first launch, which compiles the
    /// bundled modules (the instruction count reports that launch apart).
    private static func hitURLs(routes: RouteSet, directory: URL) throws -> [String] {
        let table = RouteTable<Int>()
        for (index, route) in routes.routes.enumerated() { try table.add(route.wayfinderPattern, target: index) }
        let urls = routes.urls.filter { (try? table.match($0).match) != nil }
        guard urls.count >= LaunchBench.entriesPerTab else { throw BenchError("too few URLs open a screen") }
        return urls
    }
}

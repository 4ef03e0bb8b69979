import Foundation
import Wayfinder
import WayfinderLua

struct LaunchResult {
    /// A new AppHost for the 200-route app, plus the restore of 4 tabs × 25 entries, median.
    let milliseconds: Double
    /// Of which: `AppHost(path:)` (a Lua state, the bundled modules, the app's scripts).
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
        let directory = try BenchApps.temporaryDirectory("launch")
        defer { try? FileManager.default.removeItem(at: directory) }
        let routes = RouteSet(routeCount: 200, urlCount: Self.tabCount * Self.entriesPerTab * 2, seed: 200)
        let tabRoots = (0..<Self.tabCount).map { "app://h\($0)/s0" }
        try BenchApps.write(BenchApps.launchApp(routes: routes, tabs: tabRoots), to: directory.appendingPathComponent("app.lua"))

        // The saved tree: each tab its root screen and 24 screens opened from it (URLs that hit).
        let statePath = directory.appendingPathComponent("state.json").path
        let hits = try hitURLs(routes: routes, directory: directory)
        var tabs = [[NavigationState.Entry]]()
        for tab in 0..<Self.tabCount {
            var stack = [NavigationState.Entry(url: tabRoots[tab])]
            for index in 1..<Self.entriesPerTab {
                stack.append(NavigationState.Entry(url: hits[(tab * Self.entriesPerTab + index) % hits.count]))
            }
            tabs.append(stack)
        }
        let saved = NavigationState(app: "bench-launch", mode: .all, root: .tabs(tabs, selected: 2))
        try FileStateStore(path: statePath).save(saved)

        var total = [Double](), hostTimes = [Double](), restoreTimes = [Double]()
        var constructed = -1
        var entries = 0
        for round in 0...rounds {
            var host: AppHost?
            let hostTime = try timed { host = try BenchApps.load(directory) }
            guard let host else { throw BenchError("no host") }
            host.stateStore = FileStateStore(path: statePath)
            let restoreTime = try timed { try host.launch() }
            guard case .int(let count) = try host.state.global("constructed") else {
                throw BenchError("the launch app's constructor count is missing")
            }
            entries = host.navigator.tree.allEntries.count
            guard entries == Self.tabCount * Self.entriesPerTab else {
                throw BenchError("restored \(entries) entries, not \(Self.tabCount * Self.entriesPerTab)")
            }
            constructed = Int(count)
            // Round 0 warms the file cache and the allocator; it is not counted.
            if round > 0 {
                hostTimes.append(hostTime / 1e6)
                restoreTimes.append(restoreTime / 1e6)
                total.append((hostTime + restoreTime) / 1e6)
            }
        }
        return LaunchResult(milliseconds: median(total), hostMilliseconds: median(hostTimes), restoreMilliseconds: median(restoreTimes),
                            constructed: constructed, entriesRestored: entries)
    }

    /// URLs of the route set that the app opens as screens.
    private func hitURLs(routes: RouteSet, directory: URL) throws -> [String] {
        let host = try BenchApps.load(directory)
        let urls = routes.urls.filter { (try? host.routes.match($0).match) != nil }
        guard urls.count >= Self.entriesPerTab else { throw BenchError("too few URLs open a screen") }
        return urls
    }
}

import Foundation
import Wayfinder
import WayfinderLua

/// Hot reload as a developer sees it: from saving a changed app.lua (by rename, as editors do)
/// to the new route answering, through the directory watcher (its debounce included) and
/// `WayfinderHost.reload()`. One warm-up round, then the median of the rounds.
struct ReloadBench {
    let rounds: Int

    /// Milliseconds from writing a changed app.lua to its new route answering.
    func measureReload() throws -> Double? {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-bench-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let app = directory.appendingPathComponent("app.lua")
        try Self.appSource(round: nil).write(to: app, atomically: true, encoding: .utf8)
        let host = try BenchApps.load(directory)
        try host.launch()
        let watcher = DirectoryWatcher(directory: directory.path)
        var samples: [Double] = []
        for round in 0...rounds {
            let clock = ContinuousClock()
            let start = clock.now
            try Self.writeAtomically(Self.appSource(round: round), to: app)
            guard watcher.wait(timeout: .seconds(5)) == ["app.lua"] else { throw BenchError("the watcher did not report app.lua") }
            try host.reload()
            guard try host.match("app://fresh\(round)/7").match != nil else {
                throw BenchError("app://fresh\(round)/7 does not answer after the reload")
            }
            let elapsed = clock.now - start
            if round > 0 { samples.append(Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000) }
        }
        return median(samples)
    }

    /// The app before and after a change: the launch bench's routes plus one marked by `round`.
    static func appSource(round: Int?) -> String {
        var source = BenchApps.openApp
        if let round {
            source += """

            local Fresh = wf.controller "Fresh\(round)"
            function Fresh:initWithFresh(n) self.n = n end
            wf.map:from("app://fresh\(round)/(initWithFresh:int)", Fresh)

            """
        }
        return source
    }

    /// As editors save: a temporary file beside the target, renamed over it.
    static func writeAtomically(_ text: String, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp")
        try Data(text.utf8).write(to: temporary)
        guard rename(temporary.path, url.path) == 0 else { throw BenchError("rename onto \(url.path) failed") }
    }
}

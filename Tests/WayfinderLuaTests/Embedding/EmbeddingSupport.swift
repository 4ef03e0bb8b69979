import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// A host embedding an app held in memory, as a Swift program makes one, its warnings and prints
/// collected.
final class EmbeddedApp {
    let host: WayfinderHost

    init(_ app: String, files: [String: String] = [:], lent: [LentModule] = [], native: [String: NativeScreenFactory] = [:],
         store: (any StateStore)? = nil, limits: LuaLimits = LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(500))) throws {
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: files.merging(["app.lua": app]) { _, new in new }))
        configuration.lentModules = lent
        configuration.nativeScreens = native
        configuration.stateStore = store
        configuration.limits = limits
        let log = Log()
        configuration.warn = { log.warnings.append($0) }
        configuration.printSink = { log.printed.append($0) }
        host = try WayfinderHost(configuration)
        self.log = log
    }

    private let log: Log
    private final class Log {
        var warnings: [String] = []
        var printed: [String] = []
    }

    var warnings: [String] { log.warnings }
    var printed: [String] { log.printed }

    /// Runs Lua in the app's running state.
    @discardableResult
    func run(_ source: String, chunk: String = "probe.lua") throws(ScriptError) -> [Value] {
        try host.current.state.run(source: source, chunkName: chunk)
    }

    /// The visible controller.
    var top: LuaController? { host.current.navigator.top }
}

/// The message of the error `body` throws, nil when it throws none.
func thrownMessage(_ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return String(describing: error)
    }
}

/// A state store in memory: what it saved, as the file store would hand it back.
final class MemoryStateStore: StateStore {
    var saved: NavigationState?

    func load() -> StateLoad { saved.map(StateLoad.loaded) ?? .missing }
    func save(_ state: NavigationState) throws(StateStoreError) { saved = state }
    func remove() throws(StateStoreError) { saved = nil }
}

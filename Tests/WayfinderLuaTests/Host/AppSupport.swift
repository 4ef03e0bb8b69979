import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// An app written into a temporary directory and loaded, with its prints collected.
final class TestApp {
    let directory: TemporaryDirectory
    let host: AppHost
    var printed: [String] = []

    init(_ source: String, files: [String: String] = [:], limits: LuaLimits = LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300))) throws {
        directory = try TemporaryDirectory()
        try directory.write("app.lua", source)
        for (path, text) in files { try directory.write(path, text) }
        var sink: [String] = []
        host = try AppHost(path: directory.path, limits: limits, printSink: { sink.append($0) })
        printed = sink
    }

    /// Runs Lua in the app's state and returns its results.
    @discardableResult
    func run(_ source: String) throws -> [Value] {
        try host.state.run(source: source, chunkName: "=spec")
    }
}

/// Loads an app expected to fail, returning the message.
func loadFailure(_ source: String, files: [String: String] = [:], limits: LuaLimits = LuaLimits(memoryBytes: 32 << 20, timeBudget: .milliseconds(300))) throws -> String? {
    let directory = try TemporaryDirectory()
    try directory.write("app.lua", source)
    for (path, text) in files { try directory.write(path, text) }
    do {
        _ = try AppHost(path: directory.path, limits: limits, printSink: { _ in })
        return nil
    } catch {
        return error.description
    }
}

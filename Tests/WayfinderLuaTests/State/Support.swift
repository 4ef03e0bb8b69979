import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// A state whose prints and warnings are collected instead of written out.
final class CapturingState {
    let state: LuaState
    var printed: [String] = []
    var warnings: [String] = []

    init(limits: LuaLimits = LuaLimits(memoryBytes: 16 << 20, timeBudget: .milliseconds(300))) throws {
        state = try LuaState(limits: limits)
        state.printSink = { [unowned self] in self.printed.append($0) }
        state.warningSink = { [unowned self] in self.warnings.append($0) }
    }
}

func makeState(memory: Int = 16 << 20, time: Duration = .milliseconds(300)) throws -> LuaState {
    let state = try LuaState(limits: LuaLimits(memoryBytes: memory, timeBudget: time))
    state.printSink = { _ in }
    state.warningSink = { _ in }
    return state
}

/// Runs `source` expecting it to fail, and returns the error.
func failure(_ state: LuaState, _ source: String, chunk: String = "test.lua") -> ScriptError? {
    do {
        try state.run(source: source, chunkName: chunk)
        return nil
    } catch {
        return error
    }
}

/// A fresh directory, removed when the value goes.
final class TemporaryDirectory {
    let path: String

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("wayfinder-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        path = base.path
    }

    func write(_ relativePath: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func link(_ relativePath: String, to destination: String) throws {
        let url = URL(fileURLWithPath: path).appendingPathComponent(relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
    }

    func subpath(_ relativePath: String) -> String { path + "/" + relativePath }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

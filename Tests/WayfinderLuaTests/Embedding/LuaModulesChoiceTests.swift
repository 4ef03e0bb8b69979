import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// An embedding app runs on the Lua modules compiled into Wayfinder unless its configuration names
/// a directory of them: the choice is an option, never the environment.
@Suite("Where a host's Lua modules come from")
struct LuaModulesChoiceTests {
    static let app = """
        local wf = require "wayfinder"
        print("wayfinder " .. wf.version)
        wf.map:from("tt://home", wf.controller "Home")
        wf.app { name = "probe", root = "tt://home" }
        """

    final class Printed {
        var lines: [String] = []
    }

    static func load(modules: String?) throws -> [String] {
        var configuration = WayfinderHost.Configuration(app: try AppSource(sources: ["app.lua": app]))
        configuration.luaModulesDirectory = modules
        let printed = Printed()
        configuration.printSink = { printed.lines.append($0) }
        _ = try WayfinderHost(configuration)
        return printed.lines
    }

    @Test func theCompiledInModulesUnlessTheConfigurationNamesADirectory() throws {
        #expect(try Self.load(modules: nil) == ["wayfinder 0.1.0"])
        let directory = try TemporaryDirectory()
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        try FileManager.default.copyItem(atPath: repository.appendingPathComponent("lua/wayfinder").path, toPath: directory.subpath("wayfinder"))
        let initFile = directory.subpath("wayfinder/init.lua")
        let original = try String(contentsOfFile: initFile, encoding: .utf8)
        try original.replacingOccurrences(of: "version = \"0.1.0\"", with: "version = \"edited\"").write(toFile: initFile, atomically: true, encoding: .utf8)
        #expect(try Self.load(modules: directory.path) == ["wayfinder edited"])
        #expect(try Self.load(modules: nil) == ["wayfinder 0.1.0"], "the choice is the host's alone")
    }

    @Test func aDirectoryWithoutTheModulesFailsTheLoadNamingIt() throws {
        let empty = try TemporaryDirectory()
        try empty.write("README", "no modules here")
        for directory in [empty.path, empty.subpath("nowhere")] {
            do {
                _ = try Self.load(modules: directory)
                Issue.record("loaded on \(directory)")
            } catch let error as AppLoadError {
                guard case .modulesMissing(directory) = error else { Issue.record("\(error)"); continue }
                #expect(error.localizedDescription.contains("'\(directory)' holds no complete wayfinder/ modules"))
                #expect(!error.localizedDescription.contains("WAYFINDER_LUA_PATH"), "the variable is the command line's")
            }
        }
    }
}

import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// Where an app's files come from: a directory, or sources in memory. `require` must behave the
/// same for both, so each check below runs on the same files both ways and compares the answers
/// (results and whole errors, traceback included) with each other and with what is expected.
@Suite("App sources: a directory or memory")
struct AppSourceTests {
    static let limit = FileAccess.sourceLimit

    /// The files of one app, as bytes.
    static let files: [String: [UInt8]] = {
        let text: [String: String] = [
            "app.lua": "local food = require 'screens.food'\nreturn food.name",
            "screens/food.lua": "return { name = 'food', loads = (loads or 0) + 1 }",
            "screens/menu/init.lua": "return { name = 'menu', args = { ... } }",
            "both.lua": "return 'file'",
            "both/init.lua": "return 'directory'",
            "loop/a.lua": "return require 'loop.b'",
            "loop/b.lua": "return require 'loop.a'",
            "broken.lua": "local x = 1\nerror('broken module')",
            "syntax.lua": "return {\n  a = 1\n  b = 2 }",
            "uses_map.lua": "local map = require('wayfinder.map')\nmap.explode()\nreturn map",
            // Named like bundled modules: require never reaches them.
            "wayfinder.lua": "return { shadow = true }",
            "wayfinder/map.lua": "return { shadow = true }",
            "wayfinder/native/map.lua": "return { shadow = true }",
        ]
        var files = text.mapValues { Array($0.utf8) }
        // 13 + 2 bytes around the padding: one source of exactly the limit, one a byte over it.
        files["exact.lua"] = Array("return 1 --[[".utf8) + Array(repeating: UInt8(ascii: "x"), count: limit - 15) + Array("]]".utf8)
        files["big.lua"] = Array("return 1 --[[".utf8) + Array(repeating: UInt8(ascii: "x"), count: limit - 14) + Array("]]".utf8)
        // Lua reads a source's bytes as they are: bytes that are not UTF-8 load inside a string
        // literal (and are reported only if they cross into Swift), and are a syntax error outside.
        files["latin.lua"] = Array("return { length = #'".utf8) + [0xE9, 0x74, 0xE9] + Array("', text = '".utf8) + [0xFF] + Array("' }".utf8)
        files["stray.lua"] = Array("return 1 ".utf8) + [0xFF]
        return files
    }()

    static let bundled: [String: [UInt8]] = [
        "init.lua": Array("return { bundled = true }".utf8),
        "map.lua": Array("local M = {}\nfunction M.explode()\n  error('map exploded')\nend\nreturn M".utf8),
    ]

    /// The same app and bundled modules, from a directory and from memory.
    final class Pair {
        let directory = try! TemporaryDirectory()
        let bundledDirectory = try! TemporaryDirectory()
        let onDisk: LuaState
        let inMemory: LuaState

        init() throws {
            for (path, bytes) in AppSourceTests.files { try write(bytes, to: directory.subpath(path)) }
            for (path, bytes) in AppSourceTests.bundled { try write(bytes, to: bundledDirectory.subpath(path)) }
            onDisk = try makeState()
            onDisk.appSource = try AppSource(path: directory.path)
            onDisk.bundledSource = AppSource(files: .directory(bundledDirectory.path), entry: "init.lua", name: "wayfinder")
            inMemory = try makeState()
            inMemory.appSource = try AppSource(bytes: AppSourceTests.files)
            inMemory.bundledSource = AppSource(files: .memory(AppSourceTests.bundled), entry: "init.lua", name: "wayfinder")
        }

        /// Runs `source` both ways: the results, or the errors, must be the same.
        func run(_ source: String) -> Result<[Value], ScriptError> {
            let disk = Result { () throws(ScriptError) in try onDisk.run(source: source, chunkName: "test.lua") }
            let memory = Result { () throws(ScriptError) in try inMemory.run(source: source, chunkName: "test.lua") }
            #expect(disk == memory, "\(source)")
            return disk
        }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let url = URL(fileURLWithPath: path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    @Test func requireFindsTheSameModules() throws {
        let pair = try Pair()
        #expect(try pair.run("return require('screens.food').name, require('screens.menu').name").get() == ["food", "menu"])
        #expect(try pair.run("return require('screens.menu').args").get() == [["screens.menu", "screens/menu/init.lua"]])
        #expect(try pair.run("return require('screens.food') == require('screens.food'), require('screens.food').loads").get() == [true, 1])
        #expect(try pair.run("return require 'both'").get() == ["file"], "name.lua before name/init.lua")
        #expect(try pair.run("return require('wayfinder').bundled, require('wayfinder').shadow").get() == [true, .null])
        #expect(try pair.run("return type(require('wayfinder.map').explode), require('wayfinder.map').shadow").get() == ["function", .null])
        #expect(try pair.run("return require('latin').length").get() == [3])
    }

    @Test func requireFailsTheSameWay() throws {
        let pair = try Pair()
        func message(_ source: String) -> String? {
            guard case .failure(let error) = pair.run(source) else { return nil }
            return error.message
        }
        #expect(message("require 'screens.nope'")
            == "test.lua:1: module 'screens.nope' not found: no screens/nope.lua or screens/nope/init.lua among the app's files")
        #expect(message("require 'wayfinder.nope'")
            == "test.lua:1: module 'wayfinder.nope' not found: no wayfinder/nope.lua or wayfinder/nope/init.lua among the bundled modules")
        #expect(message("require 'broken'") == "broken.lua:2: broken module")
        #expect(message("require 'syntax'")?.hasPrefix("syntax.lua:3: '}' expected (to close '{' at line 1) near 'b'") == true)
        #expect(message("require 'loop.a'")?.contains("require loop: loop.a -> loop.b -> loop.a") == true)
        #expect(message("require 'uses_map'") == "wayfinder/map.lua:3: map exploded")
        #expect(message("require 'stray'") == "stray.lua:1: <eof> expected near '<\\255>'")
        #expect(message("return require('latin').text") == "result 1: string is not valid UTF-8 (byte 1 of 1)")
        for name in ["../app", "/etc/passwd", "screens/food", "screens..food", ".app", "app.", ""] {
            #expect(message("require '\(name)'")?.contains("invalid module name") == true, "\(name)")
        }
    }

    @Test func aSourceLargerThanTheLimitIsRefusedTheSameWay() throws {
        let pair = try Pair()
        #expect(try pair.run("return require 'exact'").get() == [1], "a source of exactly the limit loads")
        guard case .failure(let error) = pair.run("require 'big'") else {
            Issue.record("a source over the limit loaded")
            return
        }
        #expect(error.message == "test.lua:1: module 'big': big.lua is larger than 16 MiB")
    }

    @Test func anAppLoadsTheSameFromMemoryAsFromItsDirectory() throws {
        let directory = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/examples/restaurant").path
        var sources: [String: String] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: directory)! where path.hasSuffix(".lua") {
            sources[path] = try String(contentsOfFile: directory + "/" + path, encoding: .utf8)
        }
        let onDisk = try AppHost(path: directory, printSink: { _ in })
        let inMemory = try AppHost(source: AppSource(sources: sources, name: "restaurant"), printSink: { _ in })
        #expect(inMemory.source.directory == nil)
        #expect(inMemory.stateName == onDisk.stateName)
        #expect(try inMemory.routeReports().map(\.json) == onDisk.routeReports().map(\.json))
        for host in [onDisk, inMemory] {
            try host.launch()
            _ = try host.navigator.open("tt://food/pizza")
        }
        #expect(inMemory.navigator.tree.allEntries.map(\.url) == onDisk.navigator.tree.allEntries.map(\.url))
        #expect(inMemory.navigator.url == "tt://food/pizza")
        #expect(try inMemory.bridge.render(#require(inMemory.navigator.top)) == onDisk.bridge.render(#require(onDisk.navigator.top)))
    }

    @Test func theEntryIsOneOfTheSources() throws {
        #expect(throws: AppLoadError.self) { try AppSource(sources: ["main.lua": "return 1"]) }
        do {
            _ = try AppSource(sources: ["main.lua": "return 1"])
        } catch {
            #expect(error.description == "the app's sources have no app.lua (give it among the sources, or name another entry)")
        }
        let host = try AppHost(source: AppSource(sources: ["main.lua": "require 'wayfinder'.app { name = 'named' }"], entry: "main.lua"),
                               printSink: { _ in })
        #expect(host.stateName == "named")
        #expect(try AppHost(source: AppSource(sources: ["app.lua": "return 1"]), printSink: { _ in }).stateName == "app")
    }

    @Test func entryErrorsNameTheEntryAsADirectoryAppDoes() throws {
        let text = "local wf = require 'wayfinder'\n\nerror('entry failed')"
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", text)
        var messages: [String] = []
        for source in [try AppSource(path: directory.path), try AppSource(sources: ["app.lua": text])] {
            do {
                _ = try AppHost(source: source, printSink: { _ in })
                Issue.record("loaded")
            } catch {
                messages.append(error.description)
            }
        }
        #expect(messages == ["app.lua:3: entry failed", "app.lua:3: entry failed"])
    }

    @Test func anEntryLargerThanTheLimitIsRefused() throws {
        let big = Array("return 1 --".utf8) + Array(repeating: UInt8(ascii: "x"), count: Self.limit)
        do {
            _ = try AppHost(source: AppSource(bytes: ["app.lua": big]), printSink: { _ in })
            Issue.record("loaded")
        } catch {
            #expect(error.description == "cannot read app.lua: larger than 16 MiB")
        }
    }

    @Test(arguments: ["../app.lua", "/etc/app.lua", "./app.lua", "screens/../app.lua", "screens//food.lua", "screens/", "",
                      "screens/./food.lua", "a\0b.lua"])
    func pathsThatADirectoryCouldNotHoldAreRefused(path: String) throws {
        do {
            _ = try AppSource(sources: ["app.lua": "return 1", path: "return 2"])
            Issue.record("\(path) was accepted")
        } catch {
            guard case .invalidSource(let why) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(why.hasPrefix("'\(path)' is not a plain relative path"))
        }
    }

    /// The native modules stay the bundled modules' own when those are compiled in: an app's
    /// files named like them change nothing.
    @Test(arguments: [false, true])
    func anAppCannotReachTheNativeModulesNorShadowABundledOne(inMemory: Bool) throws {
        let files = [
            "app.lua": """
                local wf = require "wayfinder"
                assert(wf.map ~= nil and wf.shadow == nil and require("wayfinder.map").shadow == nil)
                local ok, why = pcall(require, "wayfinder.native.map")
                return ok, why
                """,
            "wayfinder.lua": "return { shadow = true }",
            "wayfinder/init.lua": "return { shadow = true }",
            "wayfinder/map.lua": "return { shadow = true }",
            "wayfinder/native/map.lua": "return { shadow = true }",
        ]
        let directory = try TemporaryDirectory()
        for (path, text) in files { try directory.write(path, text) }
        let host = try AppHost(source: inMemory ? AppSource(sources: files) : AppSource(path: directory.path), printSink: { _ in })
        #expect(host.state.bundledSource?.directory == nil, "the compiled-in modules")
        let answer = try host.state.runEntry(of: host.source)
        #expect(answer.first == false)
        #expect(answer.last?.stringValue?.contains("module 'wayfinder.native.map' belongs to the host") == true)
    }

    /// Every file of lua/wayfinder is compiled in, byte for byte, and nothing else is: the spec
    /// runner's modules into the test kit, the rest into the library.
    @Test func theCompiledInModulesAreTheRepositorysFiles() throws {
        let root = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/wayfinder").path
        var onDisk: [String: [UInt8]] = [:]
        for case let path as String in FileManager.default.enumerator(atPath: root)! where path.hasSuffix(".lua") {
            onDisk[path] = try [UInt8](Data(contentsOf: URL(fileURLWithPath: root + "/" + path)))
        }
        #expect(onDisk.keys.contains("init.lua"))
        let specRunners: Set = ["spec.lua", "spec_io.lua", "testing.lua", "shuffle.lua"]
        #expect(Set(EmbeddedSpecLua.files.keys) == specRunners)
        #expect(EmbeddedLua.files == onDisk.filter { !specRunners.contains($0.key) })
        #expect(EmbeddedSpecLua.files == onDisk.filter { specRunners.contains($0.key) })
        #expect(BundledLua.embedded.directory == nil)
    }

    @Test func anAppInMemoryReloadsWithNewSources() throws {
        func app(_ title: String) -> [String: String] {
            ["app.lua": """
                local wf = require "wayfinder"
                local Note = wf.controller "Note"
                function Note:initWithText(text) self.text = text end
                function Note:render() return { title = "\(title) " .. self.text } end
                wf.map:from("tt://note/(initWithText:)", Note)
                wf.app { name = "notes", root = "tt://note/first" }
                """]
        }
        let host = try AppHost(source: AppSource(sources: app("Note")), printSink: { _ in })
        try host.launch()
        _ = try host.navigator.open("tt://note/second")
        #expect(try host.bridge.render(#require(host.navigator.top))?.title == "Note second")
        let (fresh, _) = try host.reloaded(from: AppSource(sources: app("Edited")))
        #expect(fresh.navigator.tree.allEntries.map(\.url) == ["tt://note/first", "tt://note/second"])
        #expect(try fresh.bridge.render(#require(fresh.navigator.top))?.title == "Edited second")
        // Without new sources, the app's own run again.
        let (again, _) = try fresh.reloaded()
        #expect(try again.bridge.render(#require(again.navigator.top))?.title == "Edited second")
        // Sources that fail leave the running app as it was.
        #expect(throws: ReloadError.self) { try again.reloaded(from: AppSource(sources: ["app.lua": "error('no')"])) }
        #expect(try again.bridge.render(#require(again.navigator.top))?.title == "Edited second")
    }
}

import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

@Suite("require")
struct RequireTests {
    /// An app directory and a bundled directory with a few modules, and a state using them.
    final class Fixture {
        let app = try! TemporaryDirectory()
        let bundled = try! TemporaryDirectory()
        let outside = try! TemporaryDirectory()
        let state: LuaState

        init() throws {
            try app.write("app.lua", "local food = require 'screens.food'\nreturn food.name")
            try app.write("screens/food.lua", "return { name = 'food', loads = (loads or 0) + 1 }")
            try app.write("screens/menu/init.lua", "return { name = 'menu', args = { ... } }")
            try app.write("util.lua", "return { name = 'util' }")
            try app.write("nothing.lua", "x_loaded = true")
            try app.write("loop/a.lua", "return require 'loop.b'")
            try app.write("loop/b.lua", "return require 'loop.a'")
            try app.write("broken.lua", "local x = 1\nerror('broken module')")
            try app.write("syntax.lua", "return {\n  a = 1\n  b = 2 }")
            try app.write("uses_map.lua", "local map = require('wayfinder.map')\nmap.explode()\nreturn map")
            try bundled.write("init.lua", "return { bundled = true }")
            try bundled.write("map.lua", "local M = {}\nfunction M.explode()\n  error('map exploded')\nend\nreturn M")
            try outside.write("secret.lua", "return 'secret'")
            try app.link("evil.lua", to: outside.subpath("secret.lua"))
            try app.link("escape", to: outside.path)
            try app.link("alias.lua", to: app.subpath("util.lua"))
            state = try makeState()
            state.appSource = try AppSource(path: app.path)
            state.bundledSource = AppSource(files: .directory(bundled.path), entry: "init.lua", name: "wayfinder")
        }
    }

    @Test func appModulesDirectoriesAndInitFiles() throws {
        let f = try Fixture()
        #expect(try f.state.run(source: "return require('screens.food').name, require('screens.menu').name") == ["food", "menu"])
        #expect(try f.state.run(source: "return require('screens.menu').args") == [["screens.menu", "screens/menu/init.lua"]])
        // Cached: the module runs once, and every require gives the same table.
        #expect(try f.state.run(source: "return require('screens.food') == require('screens.food'), require('screens.food').loads") == [true, 1])
        #expect(try f.state.run(source: "return require 'nothing', x_loaded") == [true, true])
        #expect(try f.state.require("util") == ["name": "util"])
        #expect(try f.state.require("alias") == ["name": "util"], "a symlink that stays inside the app is fine")
    }

    @Test func bundledModulesUseTheWayfinderPrefix() throws {
        let f = try Fixture()
        #expect(try f.state.run(source: "return require('wayfinder').bundled, type(require('wayfinder.map').explode)") == [true, "function"])
        let error = failure(f.state, "require 'uses_map'")
        #expect(error?.message == "wayfinder/map.lua:3: map exploded")
        #expect(error?.traceback?.contains("uses_map.lua:2:") == true)
    }

    @Test func runFileNamesItsChunkRelativeToTheApp() throws {
        let f = try Fixture()
        #expect(try f.state.runFile(f.app.subpath("app.lua")) == ["food"])
        try f.app.write("crash.lua", "\n\nerror('crashed')")
        do {
            try f.state.runFile(f.app.subpath("crash.lua"))
            Issue.record("no error")
        } catch {
            #expect(error.message == "crash.lua:3: crashed")
        }
        do {
            try f.state.runFile(f.app.subpath("absent.lua"))
            Issue.record("no error")
        } catch {
            #expect(error.kind == .notFound)
        }
    }

    @Test func aMissingModuleSaysWhatWasTried() throws {
        let f = try Fixture()
        let error = failure(f.state, "require 'screens.nope'", chunk: "app.lua")
        #expect(error?.message == "app.lua:1: module 'screens.nope' not found: no screens/nope.lua or screens/nope/init.lua among the app's files")
        let bundled = failure(f.state, "require 'wayfinder.nope'")
        #expect(bundled?.message.contains("no wayfinder/nope.lua or wayfinder/nope/init.lua among the bundled modules") == true)
        do {
            try f.state.require("nope")
            Issue.record("no error")
        } catch {
            #expect(error.kind == .notFound)
        }
    }

    @Test(arguments: ["../x", "/etc/passwd", "a/b", "a..b", ".a", "a.", "", "screens.food.lua ", "a-b", "é"])
    func namesThatAreNotDottedIdentifiersAreRefused(name: String) throws {
        let f = try Fixture()
        do {
            try f.state.require(name)
            Issue.record("\(name) was accepted")
        } catch {
            #expect(error.message.contains("invalid module name"))
        }
    }

    @Test func symlinksLeavingTheAppAreRefused() throws {
        let f = try Fixture()
        #expect(failure(f.state, "require 'evil'")?.message.contains("module 'evil': evil.lua leads outside the app directory") == true)
        #expect(failure(f.state, "require 'escape.secret'")?.message.contains("leads outside the app directory") == true)
    }

    @Test func requireLoopsAreDetected() throws {
        let f = try Fixture()
        let error = failure(f.state, "require 'loop.a'")
        #expect(error?.message.contains("require loop: loop.a -> loop.b -> loop.a") == true)
        #expect(error?.file == "loop/b.lua")
        // The marks are gone after the error: the same require reports the same loop, not a new one.
        #expect(failure(f.state, "require 'loop.b'")?.message.contains("require loop: loop.b -> loop.a -> loop.b") == true)
        // A coroutine that dies inside a require leaves no mark behind either.
        try f.app.write("yielding.lua", "coroutine.yield()\nreturn 1")
        let resumed = try f.state.run(source: "return coroutine.resume(coroutine.create(function() return require 'yielding' end))")
        #expect(resumed.first == false)
        #expect(try f.state.require("util") == ["name": "util"])
    }

    @Test func moduleErrorsNameTheirFileAndLine() throws {
        let f = try Fixture()
        let error = failure(f.state, "require 'broken'")
        #expect(error?.message == "broken.lua:2: broken module")
        #expect(failure(f.state, "require 'broken'")?.message == "broken.lua:2: broken module")
        let syntax = failure(f.state, "require 'syntax'")
        #expect(syntax?.message.hasPrefix("syntax.lua:3: '}' expected (to close '{' at line 1) near 'b'") == true)
        #expect(syntax?.file == "syntax.lua")
    }

    @Test func librariesFromSwiftArePreloaded() throws {
        let f = try Fixture()
        try f.state.registerLibrary("wayfinder.core", [
            ("version", { L in LuaCall.run(L) { _ in ["1.0"] } })
        ])
        try f.state.preload("wayfinder.config", ["debug": true])
        #expect(try f.state.run(source: "return require('wayfinder.core').version(), require('wayfinder.config').debug") == ["1.0", true])
    }

    @Test func withoutSourcesRequireSaysSo() throws {
        let state = try makeState()
        #expect(failure(state, "require 'x'")?.message.contains("module 'x': no app is set") == true)
        #expect(failure(state, "require 'wayfinder'")?.message.contains("no bundled modules are set") == true)
    }
}

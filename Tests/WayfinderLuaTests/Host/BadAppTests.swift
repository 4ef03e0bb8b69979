import Testing
import Wayfinder
@testable import WayfinderLua

/// Every bad app fails to load with a clear message that names app.lua and the line, and nothing
/// crashes or hangs.
@Suite("Bad apps")
struct BadAppTests {
    @Test(arguments: [
        ("local wf = require 'wayfinder'\nwf.map:from('tt://a', function() end\n", "app.lua:3: ')' expected (to close '(' at line 2)"),
        ("local x = 1\nlocal y = nil + x\n", "app.lua:2: attempt to perform arithmetic on a nil value"),
        ("local wf = require 'wayfinder'\n\nwf.map:from('tt://a/(id', function() end)\n", "app.lua:3: pattern 'tt://a/(id': '(' without ')'"),
        ("local wf = require 'wayfinder'\nwf.map:from('tt://u/(a)', function() end)\nwf.map:from('tt://u/(b)', function() end)\n",
         "app.lua:3: pattern 'tt://u/(b)': conflicts with 'tt://u/(a)'"),
        ("local f = io.open('/etc/passwd')\n", "app.lua:1: attempt to index a nil value (global 'io')"),
        ("\nos.execute('true')\n", "app.lua:2: attempt to call a nil value (field 'execute')"),
        ("local f = assert(load('\\27Lua'))\n", "app.lua:1: attempt to load a binary chunk"),
        ("require 'socket'\n", "app.lua:1: module 'socket' not found"),
        ("assert(require('os').execute == nil)\nrequire('os').execute('true')\n", "app.lua:2: attempt to call a nil value (field 'execute')"),
        ("local f = load(string.dump(function() end))\n", "app.lua:1: attempt to call a nil value (field 'dump')"),
        ("require '../outside'\n", "app.lua:1:"),
        ("local wf = require 'wayfinder'\nwf.map:from('tt://a', 42)\n", "app.lua:2: map:from('tt://a', target): the target must be a controller class or a function, got number"),
        ("local wf = require 'wayfinder'\nwf.map:from('tt://a', function() end, { mode = 'sideways' })\n", "app.lua:2: map:from: mode must be one of"),
        ("local wf = require 'wayfinder'\nwf.map:from('tt://a', function() end, { parent = 'no scheme' })\n", "app.lua:2: pattern 'tt://a': parent 'no scheme' is not a URL"),
        ("local wf = require 'wayfinder'\nwf.app { tabs = 'tt://a' }\n", "app.lua:2: wf.app: option 'tabs' must be a table, got string"),
        ("local wf = require 'wayfinder'\nwf.app { tabs = {} }\n", "app.lua:2: wf.app: tabs must be a list of URL strings"),
        ("local wf = require 'wayfinder'\nwf.app { root = 'tt://a', persistence = 'forever' }\n", "app.lua:2: wf.app: persistence must be"),
        ("local wf = require 'wayfinder'\nwf.map:type('int', '%d+')\n", "app.lua:2: pattern '(:int)': 'int' is a built-in type"),
        ("local wf = require 'wayfinder'\nwf.map:type('x', '[a-')\n", "app.lua:2: map:type('x'): bad Lua pattern"),
        ("local wf = require 'wayfinder'\nwf.map:from('tt://a/(v:slug)', function() end)\n", "app.lua:2: pattern 'tt://a/(v:slug)': unknown param type 'slug'"),
    ])
    func badScriptsNameTheLine(source: String, expected: String) throws {
        let message = try #require(try loadFailure(source))
        #expect(message.contains(expected), "\(message)")
    }

    @Test func endlessLoopsStopAtTheBudget() throws {
        let plain = try #require(try loadFailure("local n = 0\nwhile true do n = n + 1 end\n"))
        #expect(plain.contains("time budget of 300 ms exceeded"), "\(plain)")
        #expect(plain.contains("app.lua:2"), "\(plain)")
        let coroutine = try #require(try loadFailure("local co = coroutine.wrap(function()\n  while true do end\nend)\nco()\n"))
        #expect(coroutine.contains("time budget of 300 ms exceeded"), "\(coroutine)")
        let guarded = try #require(try loadFailure("while true do pcall(function() while true do end end) end\n"))
        #expect(guarded.contains("time budget"), "\(guarded)")
    }

    @Test func memoryBombsStopAtTheLimit() throws {
        let bomb = try #require(try loadFailure("local t = {}\nwhile true do t[#t + 1] = string.rep('x', 4096) .. #t end\n"))
        #expect(bomb.contains("memory limit of 32 MiB reached"), "\(bomb)")
        let rep = try #require(try loadFailure("local s = string.rep('x', 1 << 40)\n"))
        #expect(rep.contains("app.lua:1:"), "\(rep)")
    }

    @Test func modulesOutsideTheAppAreRefused() throws {
        let outside = try TemporaryDirectory()
        try outside.write("secret.lua", "return 'leaked'")
        let message = try #require(try loadFailure("return require 'secret'\n", files: [:]))
        #expect(message.contains("module 'secret' not found"), "\(message)")
        let app = try TemporaryDirectory()
        try app.write("app.lua", "return require 'escape'\n")
        try app.link("escape.lua", to: outside.subpath("secret.lua"))
        #expect(throws: AppLoadError.self) { try AppHost(path: app.path, printSink: { _ in }) }
    }

    @Test func errorsInAppModulesNameTheirFile() throws {
        let message = try #require(try loadFailure("require 'screens.menu'\n", files: ["screens/menu.lua": "local M = {}\n\nerror('menu is broken')\n"]))
        #expect(message.contains("screens/menu.lua:3: menu is broken"), "\(message)")
    }

    @Test func missingAppsAreReported() throws {
        let empty = try TemporaryDirectory()
        #expect(throws: AppLoadError.self) { try AppHost(path: empty.path) }
        #expect(throws: AppLoadError.self) { try AppHost(path: empty.subpath("nothing")) }
        try empty.write("notes.txt", "hello")
        #expect(throws: AppLoadError.self) { try AppHost(path: empty.subpath("notes.txt")) }
    }

    @Test func aSingleFileIsAnApp() throws {
        let directory = try TemporaryDirectory()
        try directory.write("tiny.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://home', function() return {} end)\n")
        let host = try AppHost(path: directory.subpath("tiny.lua"), printSink: { _ in })
        #expect(try host.match("tt://home").match?.route.pattern.text == "tt://home")
    }
}

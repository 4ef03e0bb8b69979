import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// Lent modules (docs/embedding.md, "Lent modules"): Swift functions a script requires by name,
/// plain data in and out, Swift's errors answered `nil, reason`, a script's mistakes raised at its
/// line, and what crosses charged to the state's memory limit.
@Suite("Lent modules")
struct LentModuleTests {
    /// A store of values by key, as an app would lend one: it keeps each value's charge beside it.
    final class Store {
        var values: [String: (value: Value, charge: ExternalCharge)] = [:]
        var calls = 0

        struct Missing: LocalizedError {
            let key: String
            var errorDescription: String? { "nothing is stored under '\(key)'" }
        }

        var module: LentModule {
            LentModule("app.store", functions: [
                "set": { [unowned self] call in
                    calls += 1
                    guard case .string(let key) = call[0] else { throw Missing(key: call[0].description) }
                    let charge = try call.charge(for: call[1])
                    values[key] = (call[1], charge)
                    return []
                },
                "get": { [unowned self] call in
                    calls += 1
                    guard let key = call[0].stringValue, let found = values[key] else { throw Missing(key: call[0].stringValue ?? call[0].description) }
                    return [found.value]
                },
                "remove": { [unowned self] call in
                    calls += 1
                    guard case .string(let key) = call[0] else { return [.bool(false)] }
                    return [.bool(values.removeValue(forKey: key) != nil)]
                },
                "echo": { [unowned self] call in
                    calls += 1
                    return call.arguments
                },
            ])
        }
    }

    @Test func aScriptRequiresTheModuleAndGetsItsValuesBack() throws {
        let store = Store()
        let app = try EmbeddedApp("local wf = require 'wayfinder'", lent: [store.module])
        let results = try app.run("""
            local store = require "app.store"
            store.set("order", { dishes = { "pizza", "soup" }, table = 4, paid = false, tip = 1.5 })
            local order = store.get("order")
            return order.dishes[2], order.table, math.type(order.table), order.paid, order.tip, select("#", store.set("x", 1)),
              require("app.store") == store
            """)
        #expect(results == [.string("soup"), .int(4), .string("integer"), .bool(false), .double(1.5), .int(0), .bool(true)])
        #expect(store.values["order"]?.value["dishes"] == .array(["pizza", "soup"]))
        // Several results, nils included, come back in order.
        #expect(try app.run("return select('#', require('app.store').echo(1, nil, 'three'))") == [.int(3)])
        #expect(try app.run("local a, b, c = require('app.store').echo(1, nil, 'three'); return a, b == nil, c")
            == [.int(1), .bool(true), .string("three")])
    }

    @Test func aSwiftErrorIsAnsweredNilAndTheReason() throws {
        let store = Store()
        let app = try EmbeddedApp("local wf = require 'wayfinder'", lent: [store.module])
        let results = try app.run("""
            local store = require "app.store"
            local value, reason = store.get("nothing")
            return value == nil, reason
            """)
        #expect(results == [.bool(true), .string("nothing is stored under 'nothing'")])
        // The state goes on as before.
        #expect(try app.run("local store = require 'app.store'; store.set('a', 1); return store.get('a')") == [.int(1)])
    }

    @Test func valuesThatAreNotPlainDataAreRaisedAtTheScriptsLine() throws {
        let store = Store()
        let app = try EmbeddedApp("local wf = require 'wayfinder'", lent: [store.module])
        let cases: [(source: String, problem: String)] = [
            ("store.set('f', print)", "bad argument #2 to 'app.store.set' (a lent function takes plain data (nil, booleans, numbers, strings and tables of them), not a function)"),
            ("store.set('c', { inner = { wf.controller('C'):new() } })", "bad argument #2 to 'app.store.set' (a lent function takes plain data (nil, booleans, numbers, strings and tables of them), not a table)"),
            ("local t = {}; t.self = t; store.set('t', t)", "bad argument #2 to 'app.store.set' (at self: table contains itself (a cycle))"),
            ("store.set('\\255', 1)", "bad argument #1 to 'app.store.set' (string is not valid UTF-8 (byte 1 of 1))"),
            ("store.set('m', { 1, x = 2 })", "bad argument #2 to 'app.store.set' (table mixes array items and string keys (index 1 and key \"x\"))"),
        ]
        for (source, problem) in cases {
            let error = failure(app.host.current.state, "local wf = require 'wayfinder'\nlocal store = require 'app.store'\n" + source, chunk: "bad.lua")
            #expect(error?.message == "bad.lua:3: " + problem, "\(source)")
        }
        // None of them reached Swift.
        #expect(store.calls == 0)
        #expect(store.values.isEmpty)
    }

    @Test func whatAScriptHandsOverIsChargedWhileTheFunctionRuns() throws {
        final class Probe { var inside: [Int] = [] }
        let probe = Probe()
        var memory: () -> Int = { 0 }
        let measure = LentModule("app.probe", functions: ["measure": { _ in probe.inside.append(memory()); return [] }])
        let app = try EmbeddedApp("big = string.rep('x', 4 << 20)", lent: [measure])
        memory = { app.host.current.state.memoryInUse }
        try app.run("require('app.probe').measure('')")
        try app.run("require('app.probe').measure(big)")
        let after = app.host.current.state.memoryInUse
        #expect(probe.inside.count == 2)
        // The 4 MiB string's Swift copy counts while the function runs, and not after.
        #expect(probe.inside[1] - probe.inside[0] >= 4 << 20, "\(probe.inside)")
        #expect(probe.inside[1] - after >= 4 << 20, "\(probe.inside), after: \(after)")
    }

    @Test func argumentsPastTheMemoryLimitStopTheScriptBeforeSwiftSeesThem() throws {
        let store = Store()
        // Three Swift copies of a 20 MiB string do not fit beside it in 64 MiB.
        let app = try EmbeddedApp("big = string.rep('x', 20 << 20)", lent: [store.module],
                                  limits: LuaLimits(memoryBytes: 64 << 20, timeBudget: .seconds(5)))
        let error = failure(app.host.current.state, "require('app.store').echo(big, big, big)", chunk: "fill.lua")
        #expect(error?.kind == .memory)
        #expect(error?.message == "fill.lua:1: memory limit of 64 MiB reached", "\(String(describing: error))")
        #expect(store.calls == 0)
        // Within the limit the same call goes through.
        #expect(try app.run("return #require('app.store').echo(big)") == [.int(20 << 20)])
        #expect(store.calls == 1)
    }

    @Test func keptValuesCountUntilTheyAreDropped() throws {
        let store = Store()
        let app = try EmbeddedApp("big = string.rep('x', 1 << 20)", lent: [store.module])
        // Each key keeps a 1 MiB copy in Swift: the store fills the state's 32 MiB and the set that
        // does not fit is raised at the script's line, storing nothing.
        let error = failure(app.host.current.state, """
            local store = require "app.store"
            for i = 1, 100 do
              store.set("k" .. i, big .. i)
            end
            """, chunk: "fill.lua")
        #expect(error?.kind == .memory)
        #expect(error?.message == "fill.lua:3: memory limit of 32 MiB reached", "\(String(describing: error))")
        let kept = store.values.count
        #expect(kept > 5 && kept < 32, "\(kept)")
        #expect(app.host.current.state.memoryInUse <= 32 << 20)
        // Dropping the values gives their memory back.
        try app.run("local store = require 'app.store'; for i = 1, 100 do store.remove('k' .. i) end")
        #expect(store.values.isEmpty)
        try app.run("local store = require 'app.store'; for i = 1, 10 do store.set('again' .. i, big .. i) end")
        #expect(store.values.count == 10)
    }

    @Test func aModuleCannotTakeANameItMayNotHave() throws {
        let function: LentModule.Function = { _ in [] }
        let refused: [(LentModule, String)] = [
            (LentModule("wayfinder", functions: [:]), "cannot lend the module 'wayfinder': 'wayfinder' and 'wayfinder.*' are the bundled modules"),
            (LentModule("wayfinder.store", functions: [:]), "cannot lend the module 'wayfinder.store': 'wayfinder' and 'wayfinder.*' are the bundled modules"),
            (LentModule("string", functions: [:]), "cannot lend the module 'string': it is one of Lua's standard libraries"),
            (LentModule("app..store", functions: [:]), "cannot lend the module 'app..store': a module name is letters, digits and underscores, parts joined by dots (as in 'app.store')"),
            (LentModule("app-store", functions: [:]), "cannot lend the module 'app-store': a module name is letters, digits and underscores, parts joined by dots (as in 'app.store')"),
            (LentModule("", functions: [:]), "cannot lend the module '': a module name is letters, digits and underscores, parts joined by dots (as in 'app.store')"),
            (LentModule("app.store", functions: ["end": function]), "cannot lend 'app.store.end': a function name is a Lua name (letters, digits and underscores, not starting with a digit, not a keyword)"),
            (LentModule("app.store", functions: ["2nd": function]), "cannot lend 'app.store.2nd': a function name is a Lua name (letters, digits and underscores, not starting with a digit, not a keyword)"),
            (LentModule("app.store", functions: ["get-all": function]), "cannot lend 'app.store.get-all': a function name is a Lua name (letters, digits and underscores, not starting with a digit, not a keyword)"),
        ]
        for (module, message) in refused {
            let error = thrownMessage { _ = try EmbeddedApp("local wf = require 'wayfinder'", lent: [module]) }
            #expect(error == message)
        }
        let twice = thrownMessage {
            _ = try EmbeddedApp("local wf = require 'wayfinder'", lent: [LentModule("app.a", functions: [:]), LentModule("app.a", functions: [:])])
        }
        #expect(twice == "cannot lend two modules named 'app.a'")
    }

    @Test func aLentModuleComesBeforeTheAppsFileOfTheSameNameAndServesEveryFile() throws {
        let store = Store()
        let app = try EmbeddedApp("""
            local wf = require 'wayfinder'
            answer = require("screens.reader").read()
            """, files: ["app/store.lua": "return { get = function() return 'the file' end }",
                         "screens/reader.lua": "return { read = function() require('app.store').set('k', 'v'); return require('app.store').get('k') end }"],
            lent: [store.module])
        #expect(try app.run("return answer") == [.string("v")])
    }

    @Test func lentModulesStayAcrossAReloadWithWhatTheyKept() throws {
        let store = Store()
        let app = try EmbeddedApp("local wf = require 'wayfinder'\nwf.map:from('tt://a', wf.controller 'A')\nwf.app { root = 'tt://a' }",
                                  lent: [store.module])
        try app.host.launch()
        try app.run("require('app.store').set('count', 41)")
        try app.host.reload()
        #expect(try app.run("local store = require 'app.store'; store.set('count', store.get('count') + 1); return store.get('count')") == [.int(42)])
    }
}

import Foundation
import Testing
import Wayfinder
import WayfinderLua
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `wayfinder test`: the spec runner's counts, exit status, failure reports and output formats.
@Suite("wayfinder test")
struct TestCommandTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    func run(_ arguments: [String]) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run(["test"] + arguments + ["--time-limit", "150"])
    }

    static let mixed = """
        describe("mixed", function()
          it("passes", function() assert.equal(2, 1 + 1) end)
          it("fails", function() assert.are.equal(3, 1 + 1) end)
          it("errors", function() local t; return t.field end)
          pending("is not written yet")
          it("is pending without a body")
        end)
        """

    @Test func countsAndExitStatus() throws {
        try directory.write("good_spec.lua", #"it("passes", function() assert.is_true(true) end) it("too", function() end)"#)
        let good = try run([directory.subpath("good_spec.lua")])
        #expect(good.status == 0)
        #expect(good.lines.last == "2 passed, 0 failed")

        try directory.write("mixed_spec.lua", Self.mixed)
        let mixed = try run([directory.subpath("mixed_spec.lua")])
        #expect(mixed.status == 1)
        #expect(mixed.lines.last == "1 passed, 2 failed, 1 pending", "an it without a function is not counted")
        #expect(mixed.stdout.contains("""
            FAIL \(directory.subpath("mixed_spec.lua")): mixed fails
              mixed_spec.lua:3: Expected objects to be equal.
              Passed in:
              (number) 2
              Expected:
              (number) 3
              stack traceback:
            """))
        #expect(mixed.stdout.contains("ERROR \(directory.subpath("mixed_spec.lua")): mixed errors\n  mixed_spec.lua:4: attempt to index a nil value (local 't')"))
    }

    @Test func aFileThatDoesNotLoadIsOneFailureAndTheOthersStillRun() throws {
        try directory.write("specs/a_spec.lua", #"it("runs", function() end)"#)
        try directory.write("specs/b_spec.lua", "describe('broken', function(")
        try directory.write("specs/deeper/c_spec.lua", #"it("runs too", function() end)"#)
        try directory.write("specs/helper.lua", "error('never loaded')")
        let result = try run([directory.subpath("specs"), "--verbose"])
        #expect(result.status == 1)
        #expect(result.lines.last == "2 passed, 1 failed")
        #expect(result.stdout.contains("ERROR   \(directory.subpath("specs/b_spec.lua")): (loading the file)"))
        #expect(result.stdout.contains("b_spec.lua:1: <name> or '...' expected near <eof>"))
        let order = result.lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("ERROR   ") }
        #expect(order.count == 3 && order[0].hasSuffix("a_spec.lua: runs") && order[2].hasSuffix("c_spec.lua: runs too"), "path order: \(order)")
    }

    /// As busted: a setup that fails is one error for its block, whose tests then do not run.
    @Test func hooksRunAroundEachTestAndTheirErrorsFailThatTest() throws {
        try directory.write("hooks_spec.lua", """
            log = {}
            describe("outer", function()
              setup(function() log[#log + 1] = "setup" end)
              before_each(function() log[#log + 1] = "before outer" end)
              after_each(function() log[#log + 1] = "after outer" end)
              teardown(function() log[#log + 1] = "teardown" end)
              describe("inner", function()
                before_each(function() log[#log + 1] = "before inner" end)
                after_each(function() log[#log + 1] = "after inner" end)
                it("sees the order", function() log[#log + 1] = "test" end)
              end)
              it("checks it", function()
                assert.same({ "setup", "before outer", "before inner", "test", "after inner", "after outer", "before outer" }, log)
              end)
            end)
            describe("broken before", function()
              before_each(function() error("no table") end)
              it("fails for it", function() end)
            end)
            describe("broken after", function()
              after_each(function() error("no cleanup") end)
              it("fails for it too", function() end)
            end)
            describe("broken setup", function()
              setup(function() error("no database") end)
              it("one", function() end)
              it("two", function() end)
            end)
            describe("broken teardown", function()
              teardown(function() error("left a mess") end)
              it("passes itself", function() end)
            end)
            """)
        let result = try run([directory.subpath("hooks_spec.lua")])
        #expect(result.lines.last == "3 passed, 4 failed")
        #expect(result.stdout.contains(": broken before fails for it\n  in before_each: hooks_spec.lua:17: no table"))
        #expect(result.stdout.contains(": broken after fails for it too\n  in after_each: hooks_spec.lua:21: no cleanup"))
        #expect(result.stdout.contains(": broken setup (setup)\n  in setup: hooks_spec.lua:25: no database"))
        #expect(!result.stdout.contains("broken setup one"))
        #expect(result.stdout.contains(": broken teardown (teardown)\n  in teardown: hooks_spec.lua:30: left a mess"))
    }

    @Test func everyAssertionPassesAndFailsAsDocumented() throws {
        let cases: [(String, String)] = [
            ("assert.equal(1, 1)", "assert.equal(1, 2)"),
            ("assert.are.equal('a', 'a')", "assert.are.equal({}, {})"),
            ("assert.same({ a = { 1, 2 } }, { a = { 1, 2 } })", "assert.same({ a = { 1, 2 } }, { a = { 2, 1 } })"),
            ("assert.are.same({}, {})", "assert.are.same({ 1 }, {})"),
            ("assert.truthy(0)", "assert.truthy(nil)"),
            ("assert.falsy(false)", "assert.falsy('')"),
            ("assert.is_true(true)", "assert.is_true(1)"),
            ("assert.is_false(false)", "assert.is_false(nil)"),
            ("assert.is_nil(nil)", "assert.is_nil(false)"),
            ("assert.not_nil(false)", "assert.not_nil(nil)"),
            ("assert.has_error(function() error('x') end)", "assert.has_error(function() end)"),
            ("assert.has_error(function() error('boom') end, 'boom')", "assert.has_error(function() error('boom') end, 'bang')"),
            ("assert.matches('^w.*r$', 'wayfinder')", "assert.matches('^x', 'wayfinder')"),
            ("assert(1 == 1)", "assert(1 == 2, 'one is not two')"),
        ]
        var source = ""
        for (index, (passing, failing)) in cases.enumerated() {
            source += "it('pass \(index)', function() \(passing) end)\nit('fail \(index)', function() \(failing) end)\n"
        }
        try directory.write("assertions_spec.lua", source)
        let result = try run([directory.subpath("assertions_spec.lua"), "--verbose"])
        #expect(result.lines.last == "\(cases.count) passed, \(cases.count) failed")
        for index in cases.indices {
            #expect(result.stdout.contains("ok      \(directory.subpath("assertions_spec.lua")): pass \(index)\n"))
            #expect(result.stdout.contains("FAIL    \(directory.subpath("assertions_spec.lua")): fail \(index)\n"), "case \(index) fails as an assertion, not an error")
        }
        #expect(result.stdout.contains("assertions_spec.lua:28: one is not two"))
        #expect(result.stdout.contains("assertions_spec.lua:24: Expected a different error.\n  Caught:\n  (string) 'boom'\n  Expected:\n  (string) 'bang'"))
    }

    @Test func aSpecThatLoopsStopsAtTheTimeBudget() throws {
        try directory.write("loop_spec.lua", """
            it("loops", function() while true do end end)
            it("loops in a coroutine", function() coroutine.wrap(function() while true do end end)() end)
            it("eats memory", function() local t = { "x" } while true do t[#t + 1] = t[#t] .. t[#t] end end)
            it("still runs", function() end)
            """)
        let result = try run([directory.subpath("loop_spec.lua")])
        #expect(result.lines.last == "1 passed, 3 failed")
        #expect(result.stdout.components(separatedBy: "time budget of 150 ms exceeded").count == 3)
        #expect(result.stdout.contains("memory"))
    }

    @Test func tapOutputFollowsTheFormat() throws {
        try directory.write("mixed_spec.lua", Self.mixed)
        let result = try run([directory.subpath("mixed_spec.lua"), "--tap"])
        let lines = result.lines
        #expect(lines.first == "TAP version 13")
        let points = lines.filter { $0.hasPrefix("ok ") || $0.hasPrefix("not ok ") }
        #expect(points.count == 4, "an it without a function is no test, as in busted")
        for (index, line) in points.enumerated() {
            #expect(line.range(of: #"^(not )?ok \#(index + 1) - .+"#, options: .regularExpression) != nil, "\(line)")
        }
        #expect(points.filter { $0.hasSuffix(" # SKIP pending") }.count == 1)
        #expect(lines.contains("1..4"))
        #expect(lines.last == "# 1 passed, 2 failed, 1 pending")
        // Every other line is a YAML block under a failing point.
        var inBlock = false
        for line in lines.dropFirst() where !points.contains(line) && line != "1..4" && !line.hasPrefix("# ") {
            if line == "  ---" { inBlock = true; continue }
            if line == "  ..." { inBlock = false; continue }
            #expect(inBlock && line.hasPrefix("  "), "stray line in TAP output: \(line)")
        }
    }

    @Test func tapEscapesNamesSoProveReadsEveryPoint() throws {
        try directory.write("names_spec.lua", #"""
            it("fails\nok 2 - all good", function() assert.is_true(false) end)
            it("bail\nBail out! stop", function() end)
            it("bell\7 and \27[2J", function() end)
            it("last", function() end)
            """#)
        let result = try run([directory.subpath("names_spec.lua"), "--tap"])
        #expect(result.lines.contains { $0.hasSuffix(#"names_spec.lua: fails\nok 2 - all good"#) && $0.hasPrefix("not ok 1 - ") })
        #expect(result.lines.contains { $0.hasSuffix(#"names_spec.lua: bail\nBail out! stop"#) && $0.hasPrefix("ok 2 - ") })
        #expect(result.lines.contains { $0.hasSuffix(#"names_spec.lua: bell\7 and \27[2J"#) && $0.hasPrefix("ok 3 - ") })
        #expect(!result.stdout.contains("\u{1B}") && !result.stdout.contains("\u{7}"))
        try directory.write("names.tap", result.stdout)
        let prove = Process()
        prove.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        prove.arguments = ["prove", "--exec", "cat", directory.subpath("names.tap")]
        let output = Pipe()
        prove.standardOutput = output
        prove.standardError = output
        try prove.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        prove.waitUntilExit()
        #expect(!text.contains("Bail out"), "\(text)")
        #expect(!text.contains("out of sequence") && !text.contains("Parse errors"), "\(text)")
        #expect(text.contains("Failed 1/4 subtests"), "\(text)")
    }

    @Test func junitOutputIsWellFormedAndCounts() throws {
        try directory.write("mixed_spec.lua", Self.mixed)
        try directory.write("good_spec.lua", #"it("a < b & \"c\"", function() end)"#)
        let xmlPath = directory.subpath("out/junit.xml")
        try FileManager.default.createDirectory(atPath: directory.subpath("out"), withIntermediateDirectories: true)
        let result = try run([directory.subpath("good_spec.lua"), directory.subpath("mixed_spec.lua"), "--junit", xmlPath])
        #expect(result.status == 1)
        let document = try XMLDocument(contentsOf: URL(fileURLWithPath: xmlPath))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "5")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == 2)
        let cases = suites.flatMap { $0.elements(forName: "testcase") }
        #expect(cases.first?.attribute(forName: "name")?.stringValue == #"a < b & "c""#)
        let failed = try #require(cases.first { $0.attribute(forName: "name")?.stringValue == "mixed fails" })
        #expect(failed.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue?.hasPrefix("mixed_spec.lua:3: Expected objects to be equal.") == true)
        #expect(cases.filter { !$0.elements(forName: "skipped").isEmpty }.count == 1)
    }

    @Test func filterListAndShuffle() throws {
        var source = "describe('group', function()\n"
        for index in 1...8 { source += "  it('test \(index)', function() end)\n" }
        source += "  it('special one', function() end)\nend)\n"
        try directory.write("many_spec.lua", source)
        let path = directory.subpath("many_spec.lua")

        let filtered = try run([path, "--filter", "special"])
        #expect(filtered.lines.last == "1 passed, 0 failed")
        let listed = try run([path, "--list", "--filter", "test"])
        #expect(listed.lines == (1...8).map { "\(path): group test \($0)" })

        func order(_ extra: [String]) throws -> [String] {
            try run([path, "--verbose"] + extra).lines.filter { $0.hasPrefix("ok") }
        }
        let written = try order([])
        let first = try order(["--seed", "42"])
        let again = try order(["--shuffle", "--seed", "42"])
        #expect(first == again, "a seed gives the same order")
        #expect(first != written, "seed 42 shuffles these nine")
        #expect(first.sorted() == written.sorted())
        #expect(try run([path, "--seed", "42"]).lines.first == "Shuffled with --seed 42")
        let listedShuffled = try run([path, "--list", "--shuffle", "--seed", "42"]).lines.filter { !$0.hasPrefix("Shuffled") }
        #expect(listedShuffled.map { $0.replacingOccurrences(of: "\(path): ", with: "") } ==
                first.map { $0.replacingOccurrences(of: "ok      \(path): ", with: "") }, "--list shows the order the seed runs")
        #expect(listedShuffled != (1...8).map { "\(path): group test \($0)" } + ["\(path): group special one"])
    }

    /// As busted's --shuffle: the files run in the order Lua's generator seeded with the seed
    /// gives (each place from the last down swapped with one at or before it).
    @Test func shuffleOrdersTheFilesAsBustedDoes() throws {
        let names = ["a", "b", "c", "d", "e", "f"]
        for name in names { try directory.write("files/\(name)_spec.lua", "it('in \(name)', function() end)") }
        let state = try LuaState(limits: .standard)
        let answer = try state.run(source: """
            return function(seed, names)
              math.randomseed(seed)
              local n = #names
              while n >= 2 do
                local k = math.random(n)
                names[n], names[k] = names[k], names[n]
                n = n - 1
              end
              return table.concat(names, " ")
            end
            """, chunkName: "=oracle")
        guard case .handle(let oracle)? = answer.first else { Issue.record("no oracle"); return }
        var moved = 0
        for seed in 1...5 {
            let ran = try run([directory.subpath("files"), "--verbose", "--seed", "\(seed)"]).lines.filter { $0.hasPrefix("ok") }
                .map { String($0.split(separator: " ").last ?? "") }
            let expected = try state.call(oracle, [.int(Int64(seed)), .array(names.map { .string($0) })]).first?.stringValue
            #expect(ran.joined(separator: " ") == expected, "seed \(seed)")
            if ran != names { moved += 1 }
        }
        #expect(moved > 0, "some seed moves the files")
        let listed = try run([directory.subpath("files"), "--list", "--seed", "3"]).lines.filter { !$0.hasPrefix("Shuffled") }
        let expected = try state.call(oracle, [.int(3), .array(names.map { .string($0) })]).first?.stringValue
        #expect(listed.map { String($0.split(separator: " ").last ?? "") }.joined(separator: " ") == expected, "--list shows the files' order")
    }

    @Test func aMissingPathIsAUsageError() throws {
        let result = try run([directory.subpath("nope")])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no such file or directory"))
        let empty = try run([directory.path])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("no *_spec.lua files under"))
    }
}

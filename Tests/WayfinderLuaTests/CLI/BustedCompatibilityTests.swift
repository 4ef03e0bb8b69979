import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// `wayfinder test` runs what busted runs: luassert's vocabulary, busted's block semantics and
/// its rules for finding spec files and modules, run from a project's root.
@Suite("busted compatibility")
struct BustedCompatibilityTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
    }

    /// Runs `wayfinder test` in the temporary project's root.
    func test(_ arguments: [String] = [], environment: [String: String] = [:]) throws -> WayfinderCLI.Result {
        try WayfinderCLI.run(["test"] + arguments + ["--time-limit", "500"], directory: directory.path, environment: environment)
    }

    func verbose(_ result: WayfinderCLI.Result, _ status: String, _ name: String) -> Bool {
        result.lines.contains { $0.hasPrefix(status) && $0.hasSuffix(": " + name) }
    }

    @Test func luassertsVocabularyWithFailuresAtTheSpecsLine() throws {
        try directory.write("spec/words_spec.lua", """
            describe("luassert", function()
              it("negates", function()
                assert.is_not.equal(1, 2); assert.are_not.same({ 1 }, { 2 }); assert.has_no.errors(function() end)
                assert.not_nil(0); assert.is_not_true(false); assert.no_error(function() end)
              end)
              it("has its words", function()
                assert.equals(3, 3); assert.True(true); assert.Nil(nil); assert.False(false)
                assert.has.error(function() error("boom", 0) end, "boom")
                assert.error_matches(function() error("time: 42 ms") end, "%d+ ms")
                assert.match("^way", "wayfinder"); assert.matches("finder$", "wayfinder")
                assert.is_table({}); assert.is_string("s"); assert.near(1, 1.05, 0.1); assert.unique({ 1, 2 })
              end)
              it("matches arguments", function()
                local s = spy.new(function() end)
                s("a", { 1 }, 3)
                assert.spy(s).was.called_with(match._, match.same({ 1 }), match.is_number())
                assert.spy(s).was_not.called_with("b")
              end)
              it("registers an assertion", function()
                local say = require "say"
                say:set("assertion.even.positive", "Expected %s to be even")
                say:set("assertion.even.negative", "Expected %s not to be even")
                assert:register("assertion", "even", function(_, arguments) return arguments[1] % 2 == 0 end,
                  "assertion.even.positive", "assertion.even.negative")
                assert.is.even(4); assert.is_not.even(3)
                assert.is.even(5)
              end)
              it("fails at the spec's line", function()
                assert.are.same({ a = 1 }, { a = 2 })
              end)
              it("fails through plain assert", function()
                assert(false, "plain")
              end)
            end)
            """)
        let result = try test(["--verbose"])
        #expect(result.status == 1)
        #expect(result.lines.last == "3 passed, 3 failed", "\(result.stdout)")
        #expect(verbose(result, "FAIL", "luassert registers an assertion"))
        #expect(verbose(result, "FAIL", "luassert fails at the spec's line"))
        #expect(verbose(result, "FAIL", "luassert fails through plain assert"))
        #expect(result.stdout.contains("  words_spec.lua:26: Expected (number) 5 to be even"))
        #expect(result.stdout.contains("  words_spec.lua:29: Expected objects to be the same."))
        #expect(result.stdout.contains("  words_spec.lua:32: plain"))
        #expect(!result.stdout.contains("luassert/"), "neither a failure nor its traceback names luassert's files")
    }

    @Test func anAssertionIsAFailureEvenAfterAMissingModuleWasMet() throws {
        try directory.write("spec/missing_spec.lua", """
            it("tried a module first", function()
              local found = pcall(function() local module = require "no_such_module"; return module end)
              assert.is_true(found)
            end)
            it("loops", function() while true do end end)
            """)
        let result = try test(["--verbose"])
        #expect(verbose(result, "FAIL", "tried a module first"), "\(result.stdout)")
        #expect(verbose(result, "ERROR", "loops"))
    }

    @Test func describeBodiesRunWhenTheRunReachesThem() throws {
        try directory.write("spec/blocks_spec.lua", """
            local busted = require "busted"
            local log = {}
            busted.describe("outer", function()
              local value
              setup(function() value = "set up" end)
              context("inner", function()
                local seen = value
                test("reads what setup set", function() assert.equal("set up", seen) end)
              end)
              describe("broken body", function()
                error("no body")
              end)
              lazy_setup(function() log[#log + 1] = "lazy" end)
              strict_teardown(function() log[#log + 1] = "teardown" end)
              spec("runs after a broken block", function() assert.same({ "lazy" }, log) end)
              it("runs finally after a failure", function()
                finally(function() log[#log + 1] = "finally" end)
                assert.is_true(false)
              end)
              it("saw finally", function() assert.equal("finally", log[#log]) end)
              it("is pending from inside", function()
                pending("not yet")
                error("never reached")
              end)
            end)
            insulate("insulated", function()
              it("sets a global", function() leaked = true; package.loaded.fake = {} end)
            end)
            it("does not see an insulated block's globals", function()
              assert.is_nil(leaked); assert.is_nil(package.loaded.fake)
            end)
            expose("exposed", function()
              exposed_value = 1
              it("sets a global", function() test_value = 1 end)
            end)
            it("sees an exposed block's globals", function() assert.equal(1, exposed_value); assert.is_nil(test_value) end)
            it("fails through busted.fail", function() assert.is_nil(fail); busted.fail("by hand") end)
            """)
        let result = try test(["--verbose"])
        #expect(verbose(result, "ok", "outer inner reads what setup set"))
        #expect(verbose(result, "ERROR", "outer broken body"))
        #expect(result.stdout.contains("in describe: blocks_spec.lua:11: no body"))
        #expect(verbose(result, "ok", "outer runs after a broken block"))
        #expect(verbose(result, "FAIL", "outer runs finally after a failure"))
        #expect(verbose(result, "ok", "outer saw finally"))
        #expect(verbose(result, "PENDING", "outer is pending from inside"))
        #expect(verbose(result, "ok", "does not see an insulated block's globals"))
        #expect(verbose(result, "ok", "sees an exposed block's globals"))
        #expect(verbose(result, "FAIL", "fails through busted.fail"))
        #expect(result.stdout.contains("blocks_spec.lua:37: by hand"))
        #expect(result.lines.last == "7 passed, 3 failed, 1 pending", "\(result.stdout)")
    }

    /// A failure and a pending test are known by the verdict the spec module raised, never by
    /// its text: an ordinary error with the very words of a failure (or of pending) is an error,
    /// even right after a failure with those words was caught; the caught failure raised again is
    /// still a failure, whose traceback starts at the spec's line.
    @Test func verdictsAreKnownByIdentityNotByTheirText() throws {
        try directory.write("spec/verdicts_spec.lua", """
            local busted = require "busted"
            local function check(how)
              if how == "fail" then busted.fail("the same words", 1) else error("the same words", 1) end
            end
            describe("verdicts", function()
              it("fails", function() check("fail") end)
              it("errors", function() check("error") end)
              it("errors after catching a failure", function()
                local _, failure = pcall(check, "fail")
                error(tostring(failure), 0)
              end)
              it("fails again", function()
                local _, failure = pcall(check, "fail")
                error(failure)
              end)
              it("errors with pending's words", function() error("pending: later", 0) end)
              it("is pending", function() pending("later") end)
            end)
            """)
        let result = try test(["--verbose"])
        #expect(verbose(result, "FAIL", "verdicts fails"))
        #expect(verbose(result, "ERROR", "verdicts errors"))
        #expect(verbose(result, "ERROR", "verdicts errors after catching a failure"))
        #expect(verbose(result, "FAIL", "verdicts fails again"))
        #expect(verbose(result, "ERROR", "verdicts errors with pending's words"))
        #expect(verbose(result, "PENDING", "verdicts is pending"))
        #expect(result.lines.last == "0 passed, 5 failed, 1 pending", "\(result.stdout)")
        for name in ["fails", "errors", "errors after catching a failure", "fails again"] {
            let status = name.hasPrefix("fails") ? "FAIL" : "ERROR"
            #expect(result.stdout.contains("\(status) spec/verdicts_spec.lua: verdicts \(name)\n  verdicts_spec.lua:3: the same words\n"),
                    "\(result.stdout)")
        }
        #expect(result.stdout.contains("FAIL spec/verdicts_spec.lua: verdicts fails again\n  verdicts_spec.lua:3: the same words\n"
            + "  stack traceback:\n  \tverdicts_spec.lua:14: in function <verdicts_spec.lua:12>\n"), "\(result.stdout)")
    }

    @Test func randomizeShufflesItsBlockRepeatably() throws {
        var source = "describe('shuffled', function()\n  randomize()\n"
        for index in 1...9 { source += "  it('test \(index)', function() end)\n" }
        source += "end)\ndescribe('written', function()\n"
        for index in 1...9 { source += "  it('test \(index)', function() end)\n" }
        source += "end)\n"
        try directory.write("spec/order_spec.lua", source)
        func order(_ block: String) throws -> [String] {
            try test(["--verbose"]).lines.filter { $0.hasPrefix("ok") && $0.contains(": \(block) ") }
        }
        let shuffled = try order("shuffled")
        let written = try order("written")
        #expect(written == (1...9).map { "ok      spec/order_spec.lua: written test \($0)" })
        #expect(shuffled.count == 9 && shuffled != written.map { $0.replacingOccurrences(of: "written", with: "shuffled") })
        #expect(try order("shuffled") == shuffled, "the same order on every run")
    }

    @Test func requireResolvesAsBustedDoesAndStaysInTheProject() throws {
        try directory.write("src/lib.lua", "return { name = 'lib', loads = (LOADS or 0) + 1 }")
        try directory.write("top/init.lua", "return 'top'")
        try directory.write("vendor/extra.lua", "return 'extra'")
        try directory.write("spec/helper.lua", "HELPED = (HELPED or 0) + 1\nreturn { help = true }")
        let outside = try TemporaryDirectory()
        try outside.write("secret.lua", "return 'secret'")
        try directory.link("escape.lua", to: outside.subpath("secret.lua"))
        try directory.write("spec/modules_spec.lua", """
            local lib = require "lib"
            it("finds ./src/?.lua and ./?/init.lua", function()
              assert.equal("lib", lib.name); assert.equal("top", require "top")
            end)
            it("accepts spec.helper and spec/helper", function()
              assert.is_true(require("spec.helper").help); assert.is_true(require("spec/helper").help)
            end)
            it("follows package.path edits", function()
              package.path = package.path .. ";./vendor/?.lua"
              assert.equal("extra", require "extra")
            end)
            it("loads again after package.loaded is cleared", function()
              package.loaded.lib = nil
              local again = require "lib"
              assert.are_not.equal(lib, again)
              assert.equal(again, package.loaded.lib)
            end)
            it("never reads a file outside the project", function()
              package.path = "../?.lua;" .. package.path
              local ok, err = pcall(function() local escaped = require "escape"; return escaped end)
              assert.is_false(ok)
              assert.matches("^modules_spec%.lua:%d+: module 'escape' not found: .*outside the project", err)
              assert.is_nil(loadfile("escape.lua"))
              assert.is_nil(loadfile("/etc/passwd"))
            end)
            it("gives the spec functions through require 'busted'", function()
              assert.equal(describe, require("busted").describe); assert.equal(assert, require("busted").assert)
            end)
            """)
        try directory.write("spec/fresh_spec.lua", """
            it("has its own package.loaded and package.path", function()
              assert.is_nil(package.loaded["spec.helper"]); assert.is_nil(package.path:find("vendor", 1, true))
              assert.is_nil(HELPED)
            end)
            """)
        let result = try test(["--verbose"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.last == "7 passed, 0 failed")
    }

    /// As Lua's package.searchpath: a name's dots become slashes, so `..` and `//` in it are
    /// plain separators (cliargs' own spec requires "../src.cliargs.core"); nothing outside the
    /// project is read.
    @Test func requireNamesWithDotsResolveAsLuasSearchpathDoes() throws {
        try directory.write("src/cliargs/core.lua", "return { core = true }")
        let outside = try TemporaryDirectory()
        try outside.write("secret.lua", "return 'secret'")
        try directory.write("spec/cliargs_spec.lua", """
            it("reads ./src/cliargs/core.lua for ../src.cliargs.core", function()
              assert.is_true(require("../src.cliargs.core").core)
              assert.equal(require("../src.cliargs.core"), package.loaded["../src.cliargs.core"])
              assert.is_true(require("src//cliargs.core").core)
              assert.is_true(require("..src.cliargs.core").core)
            end)
            it("never reads outside the project", function()
              package.path = "?.lua;" .. package.path
              local ok, err = pcall(require, "..\(outside.path.replacingOccurrences(of: "/", with: ".")).secret")
              assert.is_false(ok)
              assert.matches("not found: .*outside the project", err)
            end)
            """)
        let result = try test(["--verbose"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.last == "2 passed, 0 failed")
    }

    /// A module the spec's directory has that fails, or that requires one nobody has, is not
    /// reported missing: only the very error `require` raised for that name is, whatever the
    /// text of the others says.
    @Test func onlyRequiresOwnNotFoundMakesAModuleMissing() throws {
        try directory.write("spec/boom.lua", "error(\"module 'boom' not found, in its own words\", 0)")
        try directory.write("spec/needs.lua", "return require 'absent'")
        try directory.write("spec/missing_spec.lua", """
            it("keeps a failing module's own error", function()
              local ok, err = pcall(require, "boom")
              assert.is_false(ok)
              assert.equal("module 'boom' not found, in its own words", err)
            end)
            it("names the module that is absent, not the one that required it", function()
              local ok, err = pcall(require, "needs")
              assert.is_false(ok)
              assert.matches("module 'absent' not found", err)
              assert.is_nil(err:find("module 'needs' not found", 1, true))
            end)
            it("says where it looked for a module nobody has, or whose name none can have", function()
              local ok, err = pcall(require, "nowhere")
              assert.is_false(ok)
              assert.matches("module 'nowhere' not found: not on package.path", err)
              ok, err = pcall(require, "bad-name")
              assert.is_false(ok)
              assert.matches("module 'bad%-name' not found: not on package.path", err)
            end)
            """)
        let result = try test(["--verbose"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.lines.last == "3 passed, 0 failed")
    }

    @Test func theSandboxStaysClosedToSpecs() throws {
        try directory.write("spec/closed_spec.lua", """
            it("has no io, debug or os escape", function()
              assert.is_nil(io.open("/etc/hostname")); assert.is_nil(io.open("../../outside.txt", "w")); assert.is_nil(os.getenv)
              assert.has_error(function() os.execute("true") end, "os.execute is not available in spec files: specs start no processes")
              assert.has_error(function() io.popen("true") end, "io.popen is not available in spec files: specs start no processes")
              assert.is_nil(string.dump)
              for _, name in ipairs { "getlocal", "setlocal", "getupvalue", "setupvalue", "upvalueid", "upvaluejoin",
                                      "getregistry", "setmetatable", "getuservalue", "setuservalue", "gethook", "setcstacklimit" } do
                assert.is_nil(debug[name], name)
              end
              assert.has_error(function() debug.sethook(function() end, "l") end,
                "debug.sethook is not available in spec files: the time budget's hook is the host's")
              assert.is_nil(debug.getinfo(1).func)
              assert.is_nil(debug.getmetatable(setmetatable({}, { __metatable = "locked" })))
            end)
            it("gives luassert no way out", function()
              local util = require "luassert.util"
              assert.is_nil(rawget(util, "debug"))
              local copy = util.deepcopy(setmetatable({ 1 }, { __metatable = "locked" }))
              assert.same({ 1 }, copy); assert.is_nil(getmetatable(copy))
            end)
            it("keeps __gc refused", function()
              assert.has_error(function() setmetatable({}, { __gc = function() end }) end)
            end)
            """)
        let result = try test()
        #expect(result.status == 0, "\(result.stdout)")
        #expect(result.lines.last == "3 passed, 0 failed")
    }

    @Test func aMissingLuassertIsOneClearError() throws {
        try directory.write("spec/any_spec.lua", "it('x', function() end)")
        let empty = try TemporaryDirectory()
        let result = try test([], environment: ["WAYFINDER_LUASSERT_PATH": empty.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("luassert is not installed"))
        #expect(result.stderr.contains("apt-get install lua-luassert"))
    }

    @Test func aBareRunTakesTheSpecDirectoryAndDotBustedSettings() throws {
        try directory.write("other/b_spec.lua", "it('elsewhere', function() end)")
        let nothing = try test()
        #expect(nothing.status == 1)
        #expect(nothing.stderr.contains("no ./spec here"))
        #expect(!nothing.stdout.contains("passed"), "other directories are not searched")

        try directory.write("spec/a_spec.lua", "it('in spec', function() end)")
        let bare = try test(["--verbose"])
        #expect(bare.status == 0)
        #expect(bare.lines.contains { $0.hasSuffix("spec/a_spec.lua: in spec") })
        #expect(!bare.stdout.contains("elsewhere"))

        try directory.write(".busted", """
            return { default = { ROOT = { "tests" }, pattern = "_test%.lua$", lpath = "./lib/?.lua" } }
            """)
        try directory.write("tests/c_test.lua", "it('by pattern', function() assert.equal('lib', require 'mod') end)")
        try directory.write("tests/c_spec.lua", "it('not by pattern', function() end)")
        try directory.write("lib/mod.lua", "return 'lib'")
        let configured = try test(["--verbose"])
        #expect(configured.status == 0, "\(configured.stdout)\(configured.stderr)")
        #expect(configured.lines.contains { $0.hasSuffix("tests/c_test.lua: by pattern") })
        #expect(configured.lines.last == "1 passed, 0 failed")

        let badPattern = try test(["--pattern", "[unclosed"])
        #expect(badPattern.status == 2)
        #expect(badPattern.stderr.contains("'[unclosed' is not a Lua pattern"))
        try directory.write(".busted", "while true do end")
        let looping = try test()
        #expect(looping.status == 2)
        #expect(looping.stderr.contains("cannot read .busted") && looping.stderr.contains("time budget"))

        try directory.write(".busted", "return { default = { ROOT = { 'nowhere' } } }")
        let missing = try test()
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("./nowhere"))
    }

    @Test func filtersAreLuaPatternsAsBustedsAre() throws {
        try directory.write("spec/a_spec.lua", """
            describe("Array", function()
              it("pushes", function() end)
              it("pops 2 items", function() end)
            end)
            describe("Map of Array", function()
              it("pushes", function() end)
            end)
            """)
        func ran(_ arguments: [String]) throws -> [String] {
            try test(["--verbose"] + arguments).lines.filter { $0.hasPrefix("ok") }.map { String($0.split(separator: ": ", maxSplits: 1)[1]) }
        }
        #expect(try ran(["--filter", "^Array"]) == ["Array pushes", "Array pops 2 items"])
        #expect(try ran(["--filter", "pops %d items$"]) == ["Array pops 2 items"])
        #expect(try ran(["--filter-out", "^Array", "--filter", "Array"]) == ["Map of Array pushes"])
        #expect(try ran(["--filter", "Map.*pushes", "--filter", "^Array pop"]) == ["Array pops 2 items", "Map of Array pushes"])
        let listed = try test(["--list", "--filter", "s$"])
        #expect(listed.lines == ["spec/a_spec.lua: Array pushes", "spec/a_spec.lua: Array pops 2 items", "spec/a_spec.lua: Map of Array pushes"])
        for bad in [["--filter", "[unclosed"], ["--filter-out", "%"]] {
            let refused = try test(bad)
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("\(bad[0]) '\(bad[1])' is not a Lua pattern"), "\(refused.stderr)")
            #expect(!refused.stdout.contains("passed"))
        }
    }

    @Test func hiddenDirectoriesAndFilesAreNotRun() throws {
        try directory.write("spec/a_spec.lua", "it('visible', function() end)")
        try directory.write("spec/.hidden/b_spec.lua", "it('in a hidden directory', function() end)")
        try directory.write("spec/sub/.cache/c_spec.lua", "it('in a nested hidden directory', function() end)")
        try directory.write("spec/.d_spec.lua", "it('a hidden file', function() end)")
        let bare = try test(["--verbose"])
        #expect(bare.status == 0)
        #expect(bare.lines.last == "1 passed, 0 failed", "\(bare.stdout)")
        let named = try test(["--verbose", "spec/.hidden/b_spec.lua"])
        #expect(named.lines.last == "1 passed, 0 failed" && named.stdout.contains("in a hidden directory"), "a file named is run")
    }

    /// As busted: a lazy_setup that fails is one error, no test under its block runs, and its
    /// lazy teardown and the block's teardown still run.
    @Test func aFailedLazySetupSkipsTheTestsUnderItsBlock() throws {
        try directory.write("spec/lazy_spec.lua", """
            describe("outer", function()
              lazy_setup(function() error("no database") end)
              lazy_teardown(function() print("lazy teardown ran") end)
              teardown(function() print("teardown ran") end)
              it("first", function() end)
              describe("inner", function() it("second", function() end) end)
            end)
            it("outside", function() end)
            """)
        let result = try test(["--verbose"])
        #expect(result.status == 1)
        #expect(result.lines.contains { $0.hasPrefix("ERROR") && $0.hasSuffix(": outer (lazy_setup)") }, "\(result.stdout)")
        #expect(result.stdout.contains("in lazy_setup: lazy_spec.lua:2: no database"))
        #expect(!result.stdout.contains("outer first") && !result.stdout.contains("inner second"))
        #expect(result.stderr.contains("lazy teardown ran\nteardown ran"), "\(result.stderr)")
        #expect(result.lines.last == "1 passed, 1 failed")
    }

    /// A step's time budget may be set in .busted (time_limit, in ms); --time-limit wins over it,
    /// and a spent budget says how to give more.
    @Test func aDotBustedTimeLimitSetsTheBudgetAndTheMessageSaysHow() throws {
        try directory.write("spec/loop_spec.lua", "it('loops', function()\n  while true do end\nend)")
        try directory.write(".busted", "return { default = { time_limit = 40 } }")
        func run(_ arguments: [String] = []) throws -> WayfinderCLI.Result {
            try WayfinderCLI.run(["test"] + arguments, directory: directory.path)
        }
        let configured = try run()
        #expect(configured.status == 1)
        #expect(configured.stdout.contains("loop_spec.lua:2: time budget of 40 ms exceeded (each step may be given more: "
            + "--time-limit MS on the command line, or time_limit = MS in .busted's default task)"), "\(configured.stdout)")
        let given = try run(["--time-limit", "60"])
        #expect(given.stdout.contains("loop_spec.lua:2: time budget of 60 ms exceeded"), "the command line wins")
        for bad in ["0", "'fast'", "1.5", "-3"] {
            try directory.write(".busted", "return { _all = { time_limit = \(bad) } }")
            let refused = try run()
            #expect(refused.status == 2)
            #expect(refused.stderr.contains("./.busted: time_limit must be a whole number of milliseconds"), "\(bad): \(refused.stderr)")
        }
    }

    @Test func aSelectionOfNoTestSaysSoAndFails() throws {
        try directory.write("spec/a_spec.lua", """
            describe("group #slow", function()
              it("one #db", function() end)
              it("two", function() end)
            end)
            it("three", function() end)
            """)
        let none = try test(["--filter", "nothing like this"])
        #expect(none.status == 1)
        #expect(none.stderr.contains("no test matches the selection (--filter nothing like this)"))
        let listed = try test(["--list", "--filter", "nothing like this"])
        #expect(listed.status == 1 && listed.stdout.isEmpty)
        #expect(listed.stderr.contains("no test matches the selection"))
        #expect(try test(["--tags", "slow"]).lines.last == "2 passed, 0 failed")
        #expect(try test(["--tags", "db,nothing"]).lines.last == "1 passed, 0 failed")
        #expect(try test(["--exclude-tags", "slow"]).lines.last == "1 passed, 0 failed")
        #expect(try test(["--filter-out", "one", "--filter-out", "three"]).lines.last == "1 passed, 0 failed")
        #expect(try test(["--filter", "one", "--filter", "three"]).lines.last == "2 passed, 0 failed")
    }

    static let reported = """
        describe("report", function()
          it("passes", function() print("ok 99 - printed, not a test point") end)
          it("fails", function() assert.are.same({ 1 }, { 2 }) end)
          it("raises a table", function() error({ code = 404, reason = "gone" }) end)
          pending("later")
        end)
        """

    @Test func tapIsWhatProveAccepts() throws {
        try directory.write("spec/report_spec.lua", Self.reported)
        let script = directory.subpath("run.sh")
        try "#!/bin/sh\nexec \"$WAYFINDER\" test --tap\n".write(toFile: script, atomically: true, encoding: .utf8)
        let prove = Process()
        prove.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        prove.arguments = ["prove", "--exec", "/bin/sh", "-v", script]
        prove.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        prove.environment = ProcessInfo.processInfo.environment.merging(["WAYFINDER": WayfinderCLI.executable.path]) { _, new in new }
        let out = Pipe()
        prove.standardOutput = out
        prove.standardError = FileHandle.nullDevice
        try prove.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        prove.waitUntilExit()
        #expect(prove.terminationStatus != 0, "two points fail")
        #expect(text.contains("Failed 2/4 subtests"), "\(text)")
        #expect(!text.contains("Parse errors"), "\(text)")
        #expect(text.contains("less 1 skipped subtest"), "\(text)")

        let tap = try test(["--output=TAP"])
        #expect(!tap.stdout.contains("printed, not a test point"))
        #expect(tap.stderr.contains("printed, not a test point"))
        #expect(tap.stdout.contains("(error object is a table value) {"))
        #expect(tap.stdout.contains("code = 404") && tap.stdout.contains("reason = \"gone\""))
    }

    @Test func junitOnStandardOutputKeepsMessagesWhole() throws {
        try directory.write("spec/report_spec.lua", Self.reported)
        let result = try test(["--output=junit"])
        #expect(result.status == 1)
        let document = try XMLDocument(data: Data(result.stdout.utf8))
        let root = try #require(document.rootElement())
        #expect(root.attribute(forName: "tests")?.stringValue == "4")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "errors")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "1")
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        let failed = try #require(cases.first { $0.attribute(forName: "name")?.stringValue == "report fails" })
        let message = try #require(failed.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue)
        #expect(message.hasPrefix("report_spec.lua:3: Expected objects to be the same.\nPassed in:\n"), "\(message)")
    }
}

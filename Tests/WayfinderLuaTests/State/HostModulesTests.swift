import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// The native modules and the metatables of host objects belong to the host: no script or spec
/// reaches them, so none can install a finalizer (which Lua would run with hooks off, past the
/// time budget).
@Suite("What belongs to the host")
struct HostModulesTests {
    static let refusal = "belongs to the host: only the bundled wayfinder modules can require it"

    @Test(arguments: ["wayfinder.native.context", "wayfinder.native.map", "wayfinder.native.codec",
                      "wayfinder.native.app", "wayfinder.native.navigator", "wayfinder.native"])
    func anAppCannotRequireANativeModule(_ name: String) throws {
        let error = try loadFailure("local wf = require 'wayfinder'\nlocal native = require '\(name)'\n")
        #expect(error?.contains("app.lua:2: module '\(name)' \(Self.refusal)") == true, "\(error ?? "loaded")")
    }

    /// Neither a chunk named like a bundled file nor a script function run while a bundled module
    /// loads passes for a bundled module.
    @Test func forgedCallersAreRefused() throws {
        let forged = try loadFailure("""
            require 'wayfinder'
            return load("return require 'wayfinder.native.context'", "@wayfinder/context.lua")()
            """)
        #expect(forged?.contains(Self.refusal) == true, "\(forged ?? "loaded")")
    }

    @Test func aSpecCannotRequireTheTestingDriver() throws {
        let directory = try TemporaryDirectory()
        try directory.write("native_spec.lua", """
            local wf = require "wayfinder"
            it("installs a finalizer", function()
              local native = require "wayfinder.native.testing"
              local mt = { __index = {} }
              local ok, app = native.launch("lua/examples/restaurant", {}, mt)
              mt.__gc = function() while true do end end
            end)
            """)
        let result = try WayfinderCLI.run(["test", directory.subpath("native_spec.lua"), "--time-limit", "200"])
        #expect(result.status == 1)
        #expect(result.stdout.contains("native_spec.lua:3: module 'wayfinder.native.testing' \(Self.refusal)"), "\(result.stdout)")
    }

    /// An object made with a script's own table as its metatable gets a copy of it: the script
    /// changing its table afterwards (a looping __gc, say) does not reach the object.
    @Test func aScriptsMetatableIsCopiedNotUsed() throws {
        let state = try makeState(time: .milliseconds(200))
        weak var weakCounter: Counter?
        // A table with a metatable of its own crosses into Swift by reference.
        try state.run(source: "mt = setmetatable({ __index = { kind = function() return 'counter' end } }, {})")
        guard case .handle(let handle) = try state.global("mt"), let metatable = state.ref(for: handle) else {
            Issue.record("no metatable")
            return
        }
        do {
            let counter = Counter()
            weakCounter = counter
            try state.setGlobal("object", try state.newObject(counter, metatable: metatable))
        }
        #expect(try state.run(source: """
            mt.__gc = function() while true do end end
            mt.__index = nil
            return object:kind(), getmetatable(object)
            """) == ["counter", false])
        try state.run(source: "object = nil")
        try state.collectGarbage()
        try state.collectGarbage()
        #expect(weakCounter == nil)
        #expect(try state.run(source: "return 1") == [1])
    }
}

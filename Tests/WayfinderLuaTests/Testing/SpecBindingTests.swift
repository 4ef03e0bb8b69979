import Testing
import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// `wayfinder.native.spec`, what luassert's stand-ins and spec files' require and debug stand on:
/// it answers stack questions with source, lines and names only and reads luassert's files only.
@Suite("The spec runner's native module")
struct SpecBindingTests {
    func stateWithBinding() throws -> LuaState {
        let state = try makeState()
        try state.registerLibrary("native.spec", SpecBinding.functions)
        return state
    }

    @Test func stackInformationIsSourceLinesAndNamesOnly() throws {
        let state = try stateWithBinding()
        let answer = try state.run(source: """
            local native = require "native.spec"
            local function f() return native.getinfo(1) end
            local here, fn, beyond = f(), native.getinfo(f), native.getinfo(1000)
            local keys = {}
            for key in pairs(here) do keys[#keys + 1] = key end
            table.sort(keys)
            local fn_keys = {}
            for key in pairs(fn) do fn_keys[#fn_keys + 1] = key end
            table.sort(fn_keys)
            return table.concat(keys, ","), here.currentline, here.source, fn.linedefined, beyond == nil, table.concat(fn_keys, ",")
            """, chunkName: "probe.lua")
        #expect(answer == ["currentline,lastlinedefined,linedefined,name,namewhat,short_src,source,what", 2, "@probe.lua", 2, true,
                           "currentline,lastlinedefined,linedefined,short_src,source,what"])
    }

    @Test func onlyLuassertsAndSaysFilesAreRead() throws {
        let state = try stateWithBinding()
        for path in ["../../../etc/passwd", "luassert/../../../../etc/passwd.lua", "/etc/passwd", "luassert/.hidden.lua",
                     "other/init.lua", "luassert"] {
            let error = failure(state, "require('native.spec').assertion_source(\(Value.string(path)))")
            #expect(error?.message.contains("is not a file of luassert or say") == true, "\(path): \(String(describing: error))")
        }
        #expect(SpecRunner.assertionsAvailable, "scripts/setup installs lua-luassert")
        let answer = try state.run(source: "local text, name = require('native.spec').assertion_source('luassert/spy.lua') return type(text), name")
        #expect(answer == ["string", "@luassert/spy.lua"])
    }
}

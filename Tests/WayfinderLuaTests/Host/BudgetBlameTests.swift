import Testing
import Wayfinder
@testable import WayfinderLua

/// The time budget's error names the script's own line: a loop that spends its time inside a
/// bundled module's Lua (ctx:set, wf.codec) is the script's loop, not the module's.
@Suite("Budget errors blame the script")
struct BudgetBlameTests {
    @Test(arguments: [
        "local c = wf.context{}\nwhile true do c:set('k', 1) end",
        "local c = wf.context{}\nwhile true do wf.codec.escape('abc') end",
    ])
    func aLoopThroughABundledModuleNamesTheScriptsLine(_ source: String) throws {
        let app = try TestApp("local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\n")
        let error = #expect(throws: ScriptError.self) {
            try app.host.state.run(source: "local wf = require 'wayfinder'\n" + source, chunkName: "=loop.lua")
        }
        #expect(error?.kind == .timeout)
        #expect(error?.message.hasPrefix("loop.lua:3: time budget of 300 ms exceeded") == true, "\(String(describing: error?.message))")
    }
}

import Testing
import Wayfinder
@testable import WayfinderLua

/// An error's kind is decided where it is raised and travels with it; its wording decides nothing.
@Suite("Error kinds cross as structure")
struct ErrorKindTests {
    @Test("a missing module is notFound, also when the script re-raises the very error")
    func missingModule() throws {
        let app = try TestApp("return true")
        #expect(failure(app.host.state, "require 'nowhere'")?.kind == .notFound)
        #expect(failure(app.host.state, "local ok, err = pcall(require, 'nowhere'); error(err, 0)")?.kind == .notFound)
    }

    @Test("a script's own error worded as a missing module is the script's, not notFound")
    func forgedNotFound() throws {
        let app = try TestApp("return true")
        let error = failure(app.host.state, "pcall(require, 'nowhere'); error(\"module 'nowhere' not found: no nowhere.lua\", 0)")
        #expect(error?.kind == .runtime)
        #expect(error?.message == "module 'nowhere' not found: no nowhere.lua")
    }

    @Test("after a memory error it caught, a script's own error worded as the limit is the script's")
    func forgedMemory() throws {
        let state = try makeState(memory: 4 << 20)
        let error = failure(state, """
            local ok = pcall(function() local t = { "x" } while true do t[#t + 1] = t[#t] .. t[#t] end end)
            collectgarbage()
            error("memory limit of 4 MiB reached", 0)
            """)
        #expect(error?.kind == .runtime)
        #expect(error?.message == "memory limit of 4 MiB reached")
    }

    @Test("a memory error not caught is memory")
    func realMemory() throws {
        let state = try makeState(memory: 4 << 20)
        let error = failure(state, "local t = { 'x' } while true do t[#t + 1] = t[#t] .. t[#t] end")
        #expect(error?.kind == .memory)
    }
}

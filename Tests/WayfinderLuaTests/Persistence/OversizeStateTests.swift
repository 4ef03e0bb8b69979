import Foundation
import Testing
@testable import WayfinderLua
import Wayfinder

/// A state larger than a state file may hold is not written: the save fails naming the largest
/// entry, and the previous file stays and is restored at the next launch.
@Suite("A state too large to save")
struct OversizeStateTests {
    @Test func theSaveFailsAndThePreviousFileStays() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require 'wayfinder'
            local Page = wf.controller "Page"
            function Page:initWithPage(n) self.n = n end
            function Page:persist(state) if self.n > 1 then state.blob = string.rep("x", 9 << 20) end end
            wf.map:from("tt://page/(initWithPage:int)", Page)
            wf.app { root = "tt://page/1", persistence = "all" }
            """)
        let stateFile = directory.subpath("state.json")
        let limits = LuaLimits(memoryBytes: 128 << 20, timeBudget: .seconds(30))
        let app = try AppHost(path: directory.path, limits: limits, printSink: { _ in })
        app.stateStore = FileStateStore(path: stateFile)
        try app.launch()
        try app.persist()
        let saved = try Data(contentsOf: URL(fileURLWithPath: stateFile))
        try app.navigator.open("tt://page/2")
        try app.navigator.open("tt://page/3")
        do {
            try app.persist()
            Issue.record("a state over 16 MiB was saved")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("over the 16 MiB a state file may hold"), "\(text)")
            #expect(text.contains("the largest entry is 'tt://page/2'"), "\(text)")
            #expect(text.contains("the previous file stays"), "\(text)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: stateFile)) == saved)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app.lua", "state.json", "state.json.lock"])
        let again = try AppHost(path: directory.path, limits: limits, printSink: { _ in })
        again.stateStore = FileStateStore(path: stateFile)
        var warnings: [String] = []
        again.warn = { warnings.append($0) }
        try again.launch()
        #expect(again.navigator.url == "tt://page/1")
        #expect(warnings.isEmpty, "\(warnings)")
    }
}

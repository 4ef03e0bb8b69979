import Testing
import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// The warnings a driven app gives are kept for `stats().warnings`, at most 1,000 of them and 1 MiB
/// in all: an app that warns in a loop, naming URLs and keys it chose, cannot grow the spec's
/// host without end.
@Suite("A driven app's warnings")
struct DriverWarningsTests {
    @Test func warningsAreKeptUpToAMebibyte() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\nwf.app { root = 'tt://a' }\n")
        let driver = try AppDriver(path: directory.path, stateFile: nil, limits: LuaLimits(memoryBytes: 16 << 20, timeBudget: .seconds(5)),
                                   printSink: { _ in })
        let host = try driver.running()
        let warning = String(repeating: "w", count: 60 * 1024)
        for _ in 0..<200 { host.app.warn(warning) }
        let kept = driver.warnings
        #expect(kept.last == "(more warnings left out)")
        #expect(kept.dropLast().allSatisfy { $0 == warning })
        #expect(kept.reduce(0) { $0 + $1.utf8.count } <= AppDriver.warningBytes + 64)
        #expect(kept.count == AppDriver.warningBytes / warning.utf8.count + 1)
        // Nothing more is kept once some were left out.
        host.app.warn("short")
        #expect(driver.warnings == kept)
        try driver.close()
    }
}

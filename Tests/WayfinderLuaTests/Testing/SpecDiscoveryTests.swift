import Foundation
import Testing
import TestSupport
import Wayfinder
@testable import WayfinderLua
@testable import WayfinderTesting

/// Which files a directory search finds: busted's rule for hidden files and directories, checked
/// against Lua's own string.find with busted's pattern over generated paths.
@Suite("Spec discovery")
struct SpecDiscoveryTests {
    @Test func hiddenPathsAreThoseBustedsPatternFinds() throws {
        let state = try LuaState(limits: .standard)
        let answer = try state.run(source: "return function(path) return string.find('/' .. path, '/%.%w+.%w+') ~= nil end", chunkName: "=oracle")
        guard case .handle(let find)? = answer.first else { Issue.record("no oracle"); return }
        let pieces = [".", "..", ".a", ".ab", ".a_", "._a", ".-x", "a", "b_spec.lua", ".h", "x.y", "_", "spec", ".9z", "a.b"]
        var generator = SeededGenerator(seed: 8)
        var hidden = 0
        for _ in 0..<4000 {
            let count = 1 + Int(generator.next() % 4)
            var path = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined(separator: "/")
            if generator.next() % 3 == 0 { path += "/" + pieces[Int(generator.next() % UInt64(pieces.count))] + "_spec.lua" }
            let expected = try state.call(find, [.string(path)]).first == .bool(true)
            #expect(SpecRunner.isHidden(path) == expected, "\(path)")
            if expected { hidden += 1 }
        }
        #expect(hidden > 100 && hidden < 3900, "the generated paths hold both kinds")
    }

    @Test func aDirectorySearchSkipsHiddenFilesAndDirectories() throws {
        let directory = try TemporaryDirectory()
        for file in ["spec/a_spec.lua", "spec/.hidden/b_spec.lua", "spec/deep/.cache/c_spec.lua", "spec/.d_spec.lua",
                     "spec/deep/e_spec.lua", "spec/.-odd/f_spec.lua"] {
            try directory.write(file, "")
        }
        let found = try SpecRunner.discover([directory.subpath("spec"), directory.subpath("spec/.hidden/b_spec.lua")])
        #expect(found == ["spec/.-odd/f_spec.lua", "spec/.hidden/b_spec.lua", "spec/a_spec.lua", "spec/deep/e_spec.lua"].map(directory.subpath),
                "a file named on the command line runs even when hidden; `.-odd` is not hidden by busted's pattern")
        let inside = try SpecRunner.discover([directory.subpath("spec/.hidden")])
        #expect(inside == [directory.subpath("spec/.hidden/b_spec.lua")], "a hidden directory given to search is searched")
    }
}

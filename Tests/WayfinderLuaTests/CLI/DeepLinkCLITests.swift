import Foundation
import Testing

/// Deep links through the real binary: back stacks built from a link's own params.
@Suite("wayfinder open: deep links")
struct DeepLinkCLITests {
    static let catalog = WayfinderCLI.repositoryRoot.appendingPathComponent("lua/spec/apps/catalog").path

    @Test func aLinkToAnItemOpensHomeItsCategoryThenTheItem() throws {
        let result = try WayfinderCLI.run(["open", Self.catalog, "--link", "tt://cat/shoes/item/3"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "stack: tt://home > tt://cat/shoes > tt://cat/shoes/item/3\nvisible: tt://cat/shoes/item/3\n")
    }

    @Test func aParentThatCannotBeFilledFailsTheLoadAtTheScriptsLine() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", """
            local wf = require "wayfinder"
            local Page = wf.controller "Page"
            function Page:init() end
            wf.map:from("tt://home", Page)
            wf.map:from("tt://item/(id:int)", Page, { parent = "tt://cat/(c)" })
            wf.app { root = "tt://home", persistence = "none" }
            """)
        let result = try WayfinderCLI.run(["open", directory.subpath("app.lua"), "tt://item/3"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("app.lua:5: pattern 'tt://item/(id:int)': parent 'tt://cat/(c)' cannot be filled: "
            + "the parent of 'tt://item/(id:int)' needs the param 'c', which 'tt://item/(id:int)' does not have (its params: id)"), "\(result.stderr)")
    }
}

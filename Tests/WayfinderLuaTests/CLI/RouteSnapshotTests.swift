import Foundation
import Testing
@testable import WayfinderTesting

/// `wayfinder routes --write/--check` through the real binary.
@Suite("wayfinder routes snapshots")
struct RouteSnapshotTests {
    static let items = """
        local wf = require "wayfinder"
        local Page = wf.controller "Page"
        function Page:init() end
        wf.map:type("slug", "[a-z-]+")
        wf.map:from("tt://item/(b:int)", Page)
        wf.map:from("tt://item/(a)", Page, { mode = "modal" })
        wf.map:from("tt://about", Page)
        """

    @Test func anUnchangedTableMatchesItsSnapshot() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.items)
        let file = directory.path + "/routes.snapshot"
        let written = try WayfinderCLI.run(["routes", directory.path, "--write", file])
        #expect(written.status == 0)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("# wayfinder routes snapshot"))
        #expect(text.contains("tt://item/(a)  target=\"class Page\"  method=init  selector=a:  mode=modal\n"))
        let checked = try WayfinderCLI.run(["routes", directory.path, "--check", file])
        #expect(checked.status == 0)
        #expect(checked.stdout.contains("routes match"))
    }

    @Test func aChangedPrecedenceIsCaughtWithAReadableDiff() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.items)
        let file = directory.path + "/routes.snapshot"
        #expect(try WayfinderCLI.run(["routes", directory.path, "--write", file]).status == 0)
        // Typing the string param makes it tie with the int one, so the text order now puts it first.
        try directory.write("app.lua", Self.items.replacingOccurrences(of: "tt://item/(a)\", Page, { mode = \"modal\" }", with: "tt://item/(a:slug)\", Page"))
        let result = try WayfinderCLI.run(["routes", directory.path, "--check", file])
        #expect(result.status == 1)
        #expect(result.lines.contains { $0.hasPrefix("- #2 tt://item/(a)  target=") && $0.hasSuffix("  mode=modal") })
        #expect(result.lines.contains { $0.hasPrefix("+ #1 tt://item/(a:slug)  target=") && $0.hasSuffix("  mode=create") })
        let before = try String(contentsOfFile: file, encoding: .utf8)
        #expect(before.contains("selector=a:  mode=modal"), "--check never writes")
    }

    @Test func aReorderedSnapshotIsReportedAsAPrecedenceChange() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.items)
        let file = directory.path + "/routes.snapshot"
        #expect(try WayfinderCLI.run(["routes", directory.path, "--write", file]).status == 0)
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        lines.swapAt(1, 2)
        try directory.write("routes.snapshot", lines.joined(separator: "\n") + "\n")
        let result = try WayfinderCLI.run(["routes", directory.path, "--check", file])
        #expect(result.status == 1)
        #expect(result.lines.contains("precedence changed:"))
        #expect(result.lines.filter { $0.hasPrefix("  tt://") && $0.contains(": was #") }.count == 1)
    }

    @Test func aChangedOptionIsShownBesideItsOldLine() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.items)
        let file = directory.path + "/routes.snapshot"
        #expect(try WayfinderCLI.run(["routes", directory.path, "--write", file]).status == 0)
        try directory.write("app.lua", Self.items.replacingOccurrences(of: "wf.map:from(\"tt://about\", Page)", with: "wf.map:from(\"tt://about\", Page, { external = true })"))
        let result = try WayfinderCLI.run(["routes", directory.path, "--check", file])
        #expect(result.status == 1)
        #expect(result.lines.contains("~ tt://about"))
        #expect(result.lines.contains { $0.hasPrefix("    now: tt://about") && $0.hasSuffix("  external") })
    }

    @Test func aFileThatIsNotASnapshotIsRefusedAndLeftAlone() throws {
        let directory = try TemporaryDirectory()
        try directory.write("app.lua", Self.items)
        try directory.write("notes.txt", "hello\n")
        let notes = try WayfinderCLI.run(["routes", directory.path, "--check", directory.path + "/notes.txt"])
        #expect(notes.status == 2)
        #expect(notes.stderr.contains("is not a routes snapshot"))
        #expect(try String(contentsOfFile: directory.path + "/notes.txt", encoding: .utf8) == "hello\n")
        let missing = try WayfinderCLI.run(["routes", directory.path, "--check", directory.path + "/none"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("no such file"))
        let folder = try WayfinderCLI.run(["routes", directory.path, "--write", directory.path])
        #expect(folder.status == 2)
        #expect(folder.stderr.contains("it is a directory"))
        #expect(try WayfinderCLI.run(["routes", directory.path, "--write", "a", "--check", "b"]).status == 2)
    }
}

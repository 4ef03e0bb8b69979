import CLuaShim
import Foundation
import Testing
import TestSupport
@testable import WayfinderLua
@testable import WayfinderTesting

/// The files a spec's `io`, `lfs`, `os` and `require` reach: generated paths (`.`, `..`, `//`,
/// absolute starts, symbolic links in and out) never read outside the project nor write outside
/// the run's temporary directory, and the directory goes when the run ends.
@Suite("The files specs reach")
struct SpecFilesTests {
    /// base/project/{top.txt, a/b/file.txt, a/in -> a/b, a/out -> base/outside},
    /// base/outside/{secret.txt, secret.lua}, base/lib/{mod.lua -> ../shared/mod.lua, out.lua -> project link}.
    struct Tree {
        let base: String
        var project: String { base + "/project" }
        var outside: String { base + "/outside" }

        init() throws {
            base = try Workspace.makeTemporaryDirectory(prefix: "spec-files-test")
            let manager = FileManager.default
            for directory in ["project/a/b", "outside", "lib", "shared"] {
                try manager.createDirectory(atPath: base + "/" + directory, withIntermediateDirectories: true)
            }
            for (path, text) in [("project/top.txt", "top"), ("project/a/b/file.txt", "file"), ("outside/secret.txt", "SECRET"),
                                 ("outside/secret.lua", "return 'SECRET'"), ("shared/mod.lua", "return 'shared'")] {
                try text.write(toFile: base + "/" + path, atomically: false, encoding: .utf8)
            }
            try manager.createSymbolicLink(atPath: base + "/project/a/in", withDestinationPath: base + "/project/a/b")
            try manager.createSymbolicLink(atPath: base + "/project/a/out", withDestinationPath: base + "/outside")
            try manager.createSymbolicLink(atPath: base + "/project/escape.lua", withDestinationPath: base + "/outside/secret.lua")
            try manager.createSymbolicLink(atPath: base + "/lib/mod.lua", withDestinationPath: "../shared/mod.lua")
        }

        /// Every entry under `directory` with its contents, to see that nothing there changed.
        func snapshot(_ directory: String) -> [String: String] {
            var found = [String: String]()
            for case let relative as String in FileManager.default.enumerator(atPath: directory)?.allObjects ?? [] {
                found[relative] = (try? String(contentsOfFile: directory + "/" + relative, encoding: .utf8)) ?? "(not a file)"
            }
            return found
        }

        func remove() { try? FileManager.default.removeItem(atPath: base) }
    }

    /// What a spec's io.open(path, "r") and read("a") answer: the whole file through its stream.
    static func read(_ files: SpecFiles, _ path: String) throws -> [UInt8] {
        let stream = try files.open(path, mode: "r")
        defer { fclose(stream) }
        var bytes = [UInt8](), chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&chunk, 1, chunk.count, stream)
            if count == 0 { break }
            bytes += chunk.prefix(count)
        }
        return bytes
    }

    /// What a spec's io.open(path, "w" or "a"), write and close do; false when the close fails.
    static func write(_ files: SpecFiles, _ path: String, _ bytes: [UInt8], appending: Bool) throws -> Bool {
        let stream = try files.open(path, mode: appending ? "a" : "w")
        let written = fwrite(bytes, 1, bytes.count, stream)
        return fclose(stream) == 0 && written == bytes.count
    }

    static let alphabet = ["a", "b", "..", ".", "", "in", "out", "file.txt", "top.txt", "secret.txt", "project", "outside", "new"]

    static func generatedPath(_ random: inout SeededGenerator, starts: [String]) -> String {
        let count = Int.random(in: 1...6, using: &random)
        let components = (0..<count).map { _ in alphabet.randomElement(using: &random)! }
        return starts.randomElement(using: &random)! + components.joined(separator: "/")
    }

    @Test func generatedPathsReadNothingOutsideTheProject() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, environment: [:])
        var random = SeededGenerator(seed: 29)
        var read = 0
        for _ in 0..<600 {
            let path = Self.generatedPath(&random, starts: ["", "./", tree.project + "/", tree.base + "/", "/", tree.project + "/a/"])
            if let bytes = try? Self.read(files, path) {
                read += 1
                #expect(["top", "file"].contains(String(decoding: bytes, as: UTF8.self)), "\(path)")
            }
            if let names = try? files.list(path) { #expect(!names.contains("secret.txt"), "\(path)") }
            if let answer = try? files.attributes(path, following: true) {
                #expect(answer["size"] != .int(6), "\(path) reached secret.txt")
            }
        }
        #expect(read > 0, "some generated paths lead to the project's files")
        #expect(try Self.read(files, "a/in/file.txt") == Array("file".utf8))
        #expect(try Self.read(files, "a/b/../../top.txt") == Array("top".utf8))
        #expect(throws: Refusal.self) { try Self.read(files, "a/out/secret.txt") }
        #expect(throws: Refusal.self) { try Self.read(files, tree.outside + "/secret.txt") }
        #expect(throws: Refusal.self) { try Self.read(files, "../outside/secret.txt") }
    }

    @Test func generatedPathsWriteNothingOutsideTheTemporaryDirectory() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, environment: [:])
        let temporary = try files.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: temporary + "/out", withDestinationPath: tree.outside)
        try FileManager.default.createSymbolicLink(atPath: temporary + "/in", withDestinationPath: tree.project + "/a")
        try FileManager.default.createDirectory(atPath: temporary + "/a/b", withIntermediateDirectories: true)
        let projectBefore = tree.snapshot(tree.project), outsideBefore = tree.snapshot(tree.outside)
        var random = SeededGenerator(seed: 2929)
        var written = 0
        for _ in 0..<600 {
            let path = Self.generatedPath(&random, starts: [temporary + "/", temporary + "/a/", "", tree.project + "/", "/"])
            let other = Self.generatedPath(&random, starts: [temporary + "/", tree.outside + "/"])
            if (try? Self.write(files, path, Array("x".utf8), appending: Bool.random(using: &random))) == true { written += 1 }
            try? files.touch(path, access: nil, modification: nil)
            try? files.makeDirectory(path)
            try? files.rename(path, other)
            try? files.removeDirectory(path)
            try? files.remove(path)
        }
        #expect(written > 0, "some generated paths lead into the temporary directory")
        #expect(tree.snapshot(tree.project) == projectBefore)
        #expect(tree.snapshot(tree.outside) == outsideBefore)
        files.removeTemporary()
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test func temporaryNamesLieInTheRunsDirectoryUpToTheEntryLimit() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, environment: [:])
        let first = try files.temporaryName()
        let temporary = try files.temporaryDirectory()
        #expect(first.hasPrefix(temporary + "/"))
        #expect(try Self.write(files, first, Array("kept".utf8), appending: false))
        #expect(try Self.read(files, first) == Array("kept".utf8))
        for _ in 1..<SpecFiles.entryLimit { _ = try files.temporaryName() }
        #expect {
            try files.temporaryName()
        } throws: { error in
            (error as? Refusal)?.reason.contains("10000 files and directories") == true
        }
        files.removeTemporary()
        #expect(!FileManager.default.fileExists(atPath: temporary))
    }

    @Test func aFileLargerThanTheReadLimitIsRefusedUnread() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let big = tree.project + "/big.bin"
        #expect(FileManager.default.createFile(atPath: big, contents: nil))
        #expect(truncate(big, off_t(SpecFiles.readLimit + 1)) == 0)
        let files = SpecFiles(project: tree.project, environment: [:])
        #expect {
            try files.open("big.bin", mode: "r")
        } throws: { error in
            (error as? Refusal)?.reason == "big.bin: larger than the 16 MiB a spec may read from one file"
        }
    }

    @Test func aWritePastTheFileLimitFailsAsAFullFileDoesAndNoReadPassesTheReadLimit() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, environment: [:])
        let stream = try files.open(try files.temporaryName(), mode: "w+")
        defer { fclose(stream) }
        #expect(fseeko(stream, off_t(SpecFiles.fileWriteLimit - 1), SEEK_SET) == 0)
        #expect(fwrite("ab", 1, 2, stream) == 2)
        errno = 0
        #expect(fflush(stream) != 0)
        #expect(errno == EFBIG)
        clearerr(stream)
        #expect(fseeko(stream, off_t(SpecFiles.fileWriteLimit - 1), SEEK_SET) == 0)
        #expect(fwrite("a", 1, 1, stream) == 1)
        #expect(fflush(stream) == 0)
        var byte = [UInt8](repeating: 0, count: 2)
        #expect(fseeko(stream, off_t(SpecFiles.readLimit - 1), SEEK_SET) == 0)
        #expect(fread(&byte, 1, 2, stream) == 1, "the read stops at the limit")
        clearerr(stream)
        #expect(fseeko(stream, off_t(SpecFiles.readLimit), SEEK_SET) == 0)
        errno = 0
        #expect(fread(&byte, 1, 1, stream) == 0)
        #expect(errno == EFBIG)
    }

    @Test func theRunsWritesShareOneBudgetAndEveryStreamCounts() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let budget = try #require(wf_spec_budget_new(10, 15, 100))
        defer { wf_spec_budget_release(budget) }
        func stream(_ name: String) throws -> UnsafeMutablePointer<FILE> {
            let fd = open(tree.base + "/" + name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            #expect(fd >= 0)
            return try #require(wf_spec_file(fd, "w", budget))
        }
        let first = try stream("first"), second = try stream("second")
        #expect(wf_spec_budget_open(budget) == 2)
        #expect(fwrite("12345678", 1, 8, first) == 8)
        #expect(fflush(first) == 0)
        #expect(fwrite("90ab", 1, 4, first) == 4)
        errno = 0
        #expect(fflush(first) != 0, "past the file's limit")
        #expect(errno == EFBIG)
        #expect(fwrite("12345678", 1, 8, second) == 8)
        errno = 0
        #expect(fflush(second) != 0, "past the run's budget")
        #expect(errno == ENOSPC)
        fclose(first)
        fclose(second)
        let third = try stream("third")
        #expect(fwrite("1234567", 1, 7, third) == 7)
        #expect(fclose(third) == 0, "within the budget")
        #expect(wf_spec_budget_written(budget) == 15)
        #expect(wf_spec_budget_open(budget) == 0)
        #expect(try String(contentsOfFile: tree.base + "/first", encoding: .utf8) == "12345678")
    }

    @Test func aLinkInTheTemporaryDirectoryLeadingOutIsNeitherWrittenNorReadThrough() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, environment: [:])
        let temporary = try files.temporaryDirectory()
        try FileManager.default.createSymbolicLink(atPath: temporary + "/link", withDestinationPath: tree.outside + "/secret.txt")
        try FileManager.default.createSymbolicLink(atPath: temporary + "/dangling", withDestinationPath: tree.outside + "/made.txt")
        let before = tree.snapshot(tree.outside)
        for mode in ["w", "a", "r+", "w+", "a+", "wb"] {
            #expect(throws: Refusal.self, "\(mode)") { try files.open(temporary + "/link", mode: mode) }
            #expect(throws: Refusal.self, "\(mode)") { try files.open(temporary + "/dangling", mode: mode) }
        }
        #expect(throws: Refusal.self) { try files.open(temporary + "/link", mode: "r") }
        #expect(tree.snapshot(tree.outside) == before)
        #expect(throws: Refusal.self) { try files.open("top.txt", mode: "rw") }
    }

    @Test func theRunHoldsAtMostTheOpenLimitOfFilesAtOnce() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, environment: [:])
        var held = [UnsafeMutablePointer<FILE>]()
        defer { for stream in held { fclose(stream) } }
        for _ in 0..<SpecFiles.openLimit { held.append(try files.open("top.txt", mode: "r")) }
        #expect {
            try files.open("top.txt", mode: "r")
        } throws: { error in
            (error as? Refusal)?.reason == "top.txt: the run's specs already hold the 200 files they may have open at once"
        }
        fclose(held.removeLast())
        held.append(try files.open("top.txt", mode: "r"))
    }

    @Test func modulesComeFromTheProjectOrInstalledTreesWhoseLinksAreFollowed() throws {
        let tree = try Tree()
        defer { tree.remove() }
        let files = SpecFiles(project: tree.project, lpath: tree.base + "/lib/?.lua", environment: [:])
        #expect(files.libraryPath.hasPrefix(tree.base + "/lib/?.lua;"))
        #expect(try files.moduleSource(tree.base + "/lib/mod.lua") == Array("return 'shared'".utf8))
        #expect(try files.moduleSource("top.txt") == Array("top".utf8))
        #expect(try files.moduleSource("missing.lua") == nil)
        // A link in the project leading out is outside, as is any other path.
        #expect(throws: Refusal.self) { try files.moduleSource("escape.lua") }
        #expect(throws: Refusal.self) { try files.moduleSource(tree.outside + "/secret.lua") }
        #expect(throws: Refusal.self) { try files.moduleSource(tree.base + "/lib/../outside/secret.lua") }
        // A module past the script size is refused, not taken for a missing one.
        #expect(FileManager.default.createFile(atPath: tree.project + "/huge.lua", contents: nil))
        #expect(truncate(tree.project + "/huge.lua", off_t(FileAccess.sourceLimit + 1)) == 0)
        #expect {
            try files.moduleSource("huge.lua")
        } throws: { error in
            (error as? Refusal)?.reason == "huge.lua: larger than 16 MiB"
        }
        // Without --lpath the same tree is not searched.
        let plain = SpecFiles(project: tree.project, environment: [:])
        #expect(throws: Refusal.self) { try plain.moduleSource(tree.base + "/lib/mod.lua") }
    }

    @Test func luaPathExtendsTheSearchAndDoubleSemicolonsAreTheDefaults() {
        let templates = SpecFiles.libraryTemplates(lpath: nil, environment: ["LUA_PATH": "/opt/lua/?.lua;;", "HOME": "/home/me"])
        #expect(templates.first == "/opt/lua/?.lua")
        #expect(templates.contains("/usr/share/lua/5.4/?/init.lua"))
        #expect(templates.contains("/home/me/.luarocks/share/lua/5.4/?.lua"))
        #expect(Set(templates).count == templates.count)
        #expect(SpecFiles.directory(of: "/opt/lua/?/init.lua") == "/opt/lua")
        #expect(SpecFiles.directory(of: "?.lua") == ".")
        #expect(SpecFiles.directory(of: "no-mark") == nil)
    }

    @Test func anInstalledCModuleIsNamed() throws {
        let tree = try Tree()
        defer { tree.remove() }
        #expect(FileManager.default.createFile(atPath: tree.base + "/lib/native.so", contents: nil))
        let files = SpecFiles(project: tree.project, environment: ["LUA_CPATH": tree.base + "/lib/?.so"])
        #expect(files.cModule("native") == tree.base + "/lib/native.so")
        #expect(files.cModule("native.core") == tree.base + "/lib/native.so")
        #expect(files.cModule("absent_module_name") == nil)
    }
}

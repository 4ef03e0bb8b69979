import Foundation
import Testing

/// `wayfinder new`, `--version` and the help of every command.
@Suite("wayfinder new, --version and help")
struct NewCommandTests {
    @Test func aNewAppPassesItsSpecRunsAndLintsClean() throws {
        let dir = try TemporaryDirectory()
        let made = try WayfinderCLI.run(["new", "demo"], directory: dir.path)
        #expect(made.status == 0, "\(made.stderr)")
        let app = dir.path + "/demo"
        for file in ["app.lua", "spec/app_spec.lua", ".luarc.json", ".luacheckrc", ".luals/wayfinder.lua"] {
            #expect(FileManager.default.fileExists(atPath: app + "/" + file), "\(file)")
        }
        let test = try WayfinderCLI.run(["test"], directory: app)
        #expect(test.status == 0, "\(test.stdout)\(test.stderr)")
        #expect(test.stdout.contains("2 passed, 0 failed"))

        let run = try WayfinderCLI.run(["run", "demo", "--no-state"], input: "1\nq\n", directory: dir.path)
        #expect(run.status == 0)
        #expect(run.stdout.contains("Stack:   demo > About"))

        let luarc = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: app + "/.luarc.json"))) as? [String: Any]
        let library = try #require(luarc?["workspace.library"] as? [String])
        // A copy of the bundled definitions, inside the app, named relative to it.
        #expect(library == [".luals"])
        #expect(FileManager.default.contents(atPath: app + "/.luals/wayfinder.lua")
            == FileManager.default.contents(atPath: WayfinderCLI.repositoryRoot.appendingPathComponent("lua/wayfinder/meta/wayfinder.lua").path))

        let lint = try Self.luacheck(["--formatter", "plain", "."], directory: app)
        #expect(lint.status == 0, "\(lint.output)")
    }

    @Test func theAppsLuacheckFlagsWhatTheSandboxLacks() throws {
        let dir = try TemporaryDirectory()
        _ = try WayfinderCLI.run(["new", "demo"], directory: dir.path)
        try dir.write("demo/app.lua", "local f = io.open(\"x\")\nos.execute(\"true\")\nprint(os.time(), f)\n")
        let lint = try Self.luacheck(["--formatter", "plain", "app.lua"], directory: dir.path + "/demo")
        #expect(lint.status != 0)
        #expect(lint.output.contains("app.lua:1:11: accessing undefined variable 'io'"))
        #expect(lint.output.contains("app.lua:2:1: accessing undefined field 'execute' of global 'os'"))
        #expect(!lint.output.contains("time"))
    }

    @Test func aPathThatExistsIsRefusedAndLeftAlone() throws {
        let dir = try TemporaryDirectory()
        try dir.write("taken/app.lua", "-- mine\n")
        let again = try WayfinderCLI.run(["new", "taken"], directory: dir.path)
        #expect(again.status == 2)
        #expect(again.stderr.contains("cannot make 'taken': it exists"))
        #expect(try String(contentsOfFile: dir.path + "/taken/app.lua", encoding: .utf8) == "-- mine\n")
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/taken/spec"))

        try dir.write("file", "data")
        #expect(try WayfinderCLI.run(["new", "file"], directory: dir.path).status == 2)
        #expect(try String(contentsOfFile: dir.path + "/file", encoding: .utf8) == "data")

        try FileManager.default.createSymbolicLink(atPath: dir.path + "/dangling", withDestinationPath: dir.path + "/nowhere")
        #expect(try WayfinderCLI.run(["new", "dangling"], directory: dir.path).status == 2)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/nowhere"))
    }

    @Test(arguments: ["bad name", "quote\"d", "..", ""])
    func aNameThatCannotNameAnAppIsRefused(name: String) throws {
        let dir = try TemporaryDirectory()
        let result = try WayfinderCLI.run(["new", name], directory: dir.path)
        #expect(result.status == 2)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).isEmpty)
    }

    @Test func versionIsPrinted() throws {
        let result = try WayfinderCLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
    }

    @Test(arguments: ["new", "run", "open", "test", "match", "routes"])
    func everyCommandsHelpHasAnExample(command: String) throws {
        let result = try WayfinderCLI.run(["help", command])
        #expect(result.status == 0)
        #expect(result.stdout.contains("Example:\n  wayfinder \(command) "), "\(result.stdout)")
    }

    static func luacheck(_ arguments: [String], directory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["luacheck"] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

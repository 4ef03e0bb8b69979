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

    /// The spec launches the app beside its spec/ directory, so it passes from inside the app, from
    /// the directory above it, and from elsewhere with the spec directory's full path.
    @Test func aNewAppsSpecPassesFromAnywhere() throws {
        let dir = try TemporaryDirectory()
        try dir.write("elsewhere/.keep", "")
        #expect(try WayfinderCLI.run(["new", "mail"], directory: dir.path).status == 0)
        for (arguments, directory) in [(["test", "mail/spec"], dir.path), (["test"], dir.path + "/mail"),
                                       (["test", "spec"], dir.path + "/mail"), (["test", "."], dir.path + "/mail/spec"),
                                       (["test", dir.path + "/mail/spec"], dir.path + "/elsewhere")] {
            let test = try WayfinderCLI.run(arguments, directory: directory)
            #expect(test.status == 0 && test.stdout.contains("2 passed, 0 failed"), "\(arguments) in \(directory): \(test.stdout)\(test.stderr)")
        }
    }

    @Test func hereIsTakenFromTheSpecFilesDirectory() throws {
        let dir = try TemporaryDirectory()
        try dir.write("a/b/here_spec.lua", """
            describe("here", function()
              it("joins", function()
                local wf = require "wayfinder"
                assert.equal("a/b", wf.testing.here())
                assert.equal("a/b/..", wf.testing.here(".."))
                assert.equal("/abs", wf.testing.here("/abs"))
                assert.has_error(function() wf.testing.here(3) end, "wf.testing.here needs a path relative to the spec file (a string), got number")
              end)
            end)

            """)
        let test = try WayfinderCLI.run(["test", "a/b"], directory: dir.path)
        #expect(test.status == 0 && test.stdout.contains("1 passed, 0 failed"), "\(test.stdout)\(test.stderr)")
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

    /// The commands `wayfinder --help` lists, ArgumentParser's own `help` aside.
    static func listedCommands() throws -> [String] {
        let help = try WayfinderCLI.run(["--help"]).stdout
        guard let section = help.range(of: "SUBCOMMANDS:\n") else { return [] }
        return help[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false)
            .prefix { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            // A command's line starts two spaces in; its abstract's next lines, further.
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
            .filter { $0 != "help" }
    }

    /// Every command the binary lists, none left out: an example, and each default said once.
    @Test func everyCommandsHelpHasAnExampleAndSaysEachDefaultOnce() throws {
        let commands = try Self.listedCommands()
        #expect(Set(commands).isSuperset(of: ["new", "run", "serve", "open", "test", "match", "routes", "crawl"]), "\(commands)")
        for command in commands {
            let result = try WayfinderCLI.run(["help", command])
            #expect(result.status == 0)
            #expect(result.stdout.contains("Example:\n  wayfinder \(command) "), "\(command): \(result.stdout)")
            // ArgumentParser adds "(default: X)" to an option with a default value: help that says
            // the default itself must not get a second one.
            let flattened = result.stdout.replacingOccurrences(of: "\n", with: " ")
            for option in flattened.components(separatedBy: "  -").dropFirst() {
                #expect(option.components(separatedBy: "(default:").count <= 2, "\(command): -\(option)")
            }
        }
    }

    /// `run --help` names every command `h` lists in the session.
    @Test func runsHelpNamesEveryCommandOfTheSession() throws {
        let dir = try TemporaryDirectory()
        #expect(try WayfinderCLI.run(["new", "demo"], directory: dir.path).status == 0)
        let session = try WayfinderCLI.run(["run", "demo", "--no-state"], input: "h\nq\n", directory: dir.path).stdout
        let listed = session.components(separatedBy: "commands:\n").dropFirst().first?.components(separatedBy: "on a terminal:").first ?? ""
        let keys = listed.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(keys.count >= 10, "\(session)")
        // The help's one-line list, "..., b (back), d (dismiss), t N (select tab N), ...", unwrapped.
        let help = try WayfinderCLI.run(["help", "run"]).stdout.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        for key in keys where key != "N" {
            #expect(help.contains(", \(key) "), "run --help does not name '\(key)': \(help)")
        }
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

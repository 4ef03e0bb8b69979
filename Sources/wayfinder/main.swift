import ArgumentParser
import Foundation

/// `wayfinder`: the terminal face of Wayfinder.
struct WayfinderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wayfinder",
        abstract: "URL-based navigation with flows written in Lua.",
        discussion: """
            An APP is a directory holding app.lua, or a single .lua file. Output that print() writes \
            from scripts goes to standard error, so command output stays clean. `wayfinder help \
            COMMAND` shows a command's options and an example; docs/ in the source holds the rest.

            Example:
              wayfinder new demo && cd demo && wayfinder test && wayfinder run .
            """,
        version: "0.1.0",
        subcommands: [NewCommand.self, RunCommand.self, ServeCommand.self, OpenCommand.self, TestCommand.self, MatchCommand.self, RoutesCommand.self, LinksCommand.self, CrawlCommand.self, BundleCommand.self]
    )

    /// Runs the command line. Exit status: what the command says, 2 for a call that is wrong
    /// (unknown option, missing argument), 0 for help and version.
    static func runCommandLine() -> Never {
        do {
            var command = try parseAsRoot()
            try command.run()
            Foundation.exit(0)
        } catch {
            let code = exitCode(for: error)
            let message = fullMessage(for: error)
            if code == .success {
                // Help and version are answers, not diagnostics.
                FileHandle.standardOutput.write(Data((message + "\n").utf8))
                Foundation.exit(0)
            }
            if code.rawValue == 1 || code.rawValue == 2 {
                if !message.isEmpty { FileHandle.standardError.write(Data((message + "\n").utf8)) }
                Foundation.exit(code.rawValue)
            }
            // A usage error: ArgumentParser says 64; Wayfinder's contract says 2.
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            Foundation.exit(2)
        }
    }
}

LuaModulesVariable.apply()
WayfinderCommand.runCommandLine()

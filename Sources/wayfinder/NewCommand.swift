import ArgumentParser
import Foundation
import WayfinderLua

/// `wayfinder new NAME`: a new app directory that runs and passes its spec at once.
struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Make a new app: app.lua with two screens and a link, a passing spec, editor and luacheck settings.",
        discussion: """
            NAME is the directory to make (its parent must exist); its last component, letters, \
            digits, '-', '_' and '.', names the app. A path that exists is refused and nothing is \
            written. Inside it, `wayfinder test` passes and `wayfinder run .` shows the app.

            Example:
              wayfinder new demo && cd demo && wayfinder test
            """
    )

    @Argument(help: "The directory to make, e.g. demo.")
    var name: String

    func run() throws {
        let appName = (name as NSString).lastPathComponent
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard !appName.isEmpty, appName != ".", appName != "..", appName.allSatisfy(allowed.contains) else {
            throw refuse("new: '\(name)' is not a usable app name (letters, digits, '-', '_' and '.')")
        }
        guard let bundled = BundledLua.directory() else {
            throw refuse("new: the bundled Lua modules are not found (set WAYFINDER_LUA_PATH)")
        }
        let std: String
        do {
            std = try String(contentsOfFile: (bundled as NSString).appendingPathComponent("meta/luacheck_std.lua"), encoding: .utf8)
        } catch {
            throw refuse("new: cannot read the bundled luacheck std in \(bundled)/meta")
        }
        let files = NewAppTemplate(appName: appName, metaDirectory: (bundled as NSString).appendingPathComponent("meta"), luacheckStd: std).files
        // mkdir refuses a path that exists (a file, a directory, a dangling link) without touching it.
        guard mkdir(name, 0o755) == 0 else {
            let reason = errno == EEXIST ? "it exists" : String(cString: strerror(errno))
            throw refuse("new: cannot make '\(name)': \(reason)")
        }
        do {
            for (path, text) in files {
                let full = (name as NSString).appendingPathComponent(path)
                try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: full), options: .withoutOverwriting)
            }
        } catch {
            // Only what this command made is removed: the directory did not exist before.
            try? FileManager.default.removeItem(atPath: name)
            throw refuse("new: cannot write '\(name)': \(error.localizedDescription)")
        }
        Terminal.print("made \(name): app.lua, spec/app_spec.lua, .luarc.json, .luacheckrc")
        Terminal.print("next: cd \(name) && wayfinder test && wayfinder run .")
    }

    /// A refusal: its reason on standard error, exit status 2.
    private func refuse(_ reason: String) -> ExitCode {
        Terminal.error(reason)
        return ExitCode(2)
    }
}

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
        var meta: [String: String] = [:]
        for file in ["meta/luacheck_std.lua", "meta/wayfinder.lua"] {
            do {
                guard let bytes = try BundledLua.file(file) else { throw refuse("new: the bundled modules have no \(file)") }
                meta[file] = String(decoding: bytes, as: UTF8.self)
            } catch let error as AppLoadError {
                throw refuse("new: \(error)")
            }
        }
        let files = NewAppTemplate(appName: appName, definitions: meta["meta/wayfinder.lua"] ?? "", luacheckStd: meta["meta/luacheck_std.lua"] ?? "").files
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
        Terminal.print("made \(name): app.lua, spec/app_spec.lua, .luarc.json, .luacheckrc, .luals/wayfinder.lua")
        Terminal.print("next: cd \(name) && wayfinder test && wayfinder run .")
    }

    /// A refusal: its reason on standard error, exit status 2.
    private func refuse(_ reason: String) -> ExitCode {
        Terminal.error(reason)
        return ExitCode(2)
    }
}

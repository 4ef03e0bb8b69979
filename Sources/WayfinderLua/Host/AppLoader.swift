import Foundation
import Wayfinder

/// How an app is loaded: where its entry script is, and the sandboxed state it runs in (limits,
/// where `print` goes, the native libraries lent to it beyond the app's own, a prelude run before
/// the entry). Loading comes in three steps, so the host can put itself in place between them:
/// ``makeState()``, ``startModules(in:)``, ``runEntry(in:)``. The host keeps its loader, so a hot
/// reload loads the app again the same way.
struct AppLoader {
    /// Where `require` finds the app's modules, and the entry script in it.
    let directory: String
    let entryFile: String
    let limits: LuaLimits
    let printSink: ((String) -> Void)?
    /// Lua run after the `wayfinder` module is in place and before the entry file (the spec
    /// runner installs its vocabulary with it).
    let prelude: String?
    /// Native modules beyond the app's own (the spec runner lends `wayfinder.native.testing`).
    let libraries: [(String, [(String, LuaBinding)])]

    /// The native modules every app gets, one per binding.
    static let appLibraries: [(String, [(String, LuaBinding)])] = [
        ("wayfinder.native.map", MapBinding.functions),
        ("wayfinder.native.codec", CodecBinding.functions),
        ("wayfinder.native.app", AppBinding.functions),
        ("wayfinder.native.navigator", NavigatorBinding.functions),
        ("wayfinder.native.context", ContextBinding.functions),
    ]

    /// The app at `path`: a directory holding app.lua, or a single .lua file.
    init(path: String, limits: LuaLimits, printSink: ((String) -> Void)?, prelude: String?,
         libraries: [(String, [(String, LuaBinding)])]) throws(AppLoadError) {
        (directory, entryFile) = try Self.locate(path)
        self.limits = limits
        self.printSink = printSink
        self.prelude = prelude
        self.libraries = libraries
    }

    private static func locate(_ path: String) throws(AppLoadError) -> (directory: String, entry: String) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound("no such file or directory: \(path)")
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        if isDirectory.boolValue {
            let entry = url.appendingPathComponent("app.lua").path
            guard FileManager.default.fileExists(atPath: entry) else {
                throw .notFound("\(path) has no app.lua (an app is a directory with app.lua, or a single .lua file)")
            }
            return (url.path, entry)
        }
        guard url.pathExtension == "lua" else {
            throw .notFound("\(path) is not a .lua file (an app is a directory with app.lua, or a single .lua file)")
        }
        return (url.deletingLastPathComponent().path, url.path)
    }

    /// A fresh sandboxed state: the app's and the bundled modules' roots, the print sink, and the
    /// native libraries registered (nothing has run yet).
    func makeState() throws(AppLoadError) -> LuaState {
        guard let bundled = BundledLua.directory() else { throw .bundledModulesMissing }
        let state: LuaState
        do {
            state = try LuaState(limits: limits)
            state.appDirectory = directory
            state.bundledDirectory = bundled
            state.printSink = printSink ?? { text in FileHandle.standardError.write(Data((text + "\n").utf8)) }
            for (name, functions) in Self.appLibraries + libraries { try state.registerLibrary(name, functions) }
        } catch {
            throw .script(error)
        }
        return state
    }

    /// Sets up the `wayfinder` module (also the global `wayfinder`) and answers the functions the
    /// host calls into Lua with, and the constructor deduction `wayfinder match` reports.
    func startModules(in state: LuaState) throws(AppLoadError) -> (hooks: LuaHostHooks, deduce: Value.Handle) {
        // Set from Lua so the global is the module table itself, not a converted copy.
        let bootstrap = "wayfinder = require 'wayfinder'; return wayfinder.map._deduce, require 'wayfinder.host'"
        let internals: [Value]
        do {
            internals = try state.run(source: bootstrap, chunkName: "=wayfinder")
        } catch {
            throw .script(error)
        }
        guard internals.count == 2, case .handle(let deduce) = internals[0], let hooks = LuaHostHooks(internals[1]) else {
            throw .bundledModulesMissing
        }
        return (hooks, deduce)
    }

    /// Runs the prelude, then the entry script.
    func runEntry(in state: LuaState) throws(AppLoadError) {
        do {
            if let prelude { try state.run(source: prelude, chunkName: "=prelude") }
            try state.runFile(entryFile)
        } catch {
            throw .script(error)
        }
    }
}

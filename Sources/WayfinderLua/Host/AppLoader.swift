import Foundation
import Wayfinder

/// How an app is loaded: where its files come from (``AppSource``: a directory, or sources in
/// memory), and the sandboxed state it runs in (limits, where `print` goes, the native libraries
/// lent to it beyond the app's own, a prelude run before the entry). Loading comes in three steps,
/// so the host can put itself in place between them: ``makeState()``, ``startModules(in:)``,
/// ``runEntry(in:)``. The host keeps its loader, so a hot reload loads the app again the same way.
package struct AppLoader {
    let source: AppSource
    let limits: LuaLimits
    let printSink: ((String) -> Void)?
    /// Lua run after the `wayfinder` module is in place and before the entry file (the spec
    /// runner installs its vocabulary with it); a function it answers is handed the entry's
    /// chunk before the chunk runs.
    let prelude: String?
    /// Native modules beyond the app's own (the spec runner lends `wayfinder.native.testing`).
    let libraries: [(String, [(String, LuaBinding)])]
    /// Modules of Swift functions lent to the scripts (`require "app.store"`).
    let lentModules: [LentModule]
    /// Each lent function by its full name ("app.store.get"), as the binding that runs it is
    /// registered.
    let lentFunctions: [String: LentModule.Function]
    /// The screens Swift makes, by the name `wf.native` gives them.
    let nativeScreens: [String: NativeScreenFactory]
    /// The directory whose `wayfinder/` modules are read instead of the compiled-in ones; nil:
    /// the compiled-in modules.
    let modulesDirectory: String?
    /// The compiled-in modules: the library's (nil), or those with a test kit's beside them
    /// (`BundledLua.adding`).
    let compiledIn: AppSource?

    package init(source: AppSource, limits: LuaLimits, printSink: ((String) -> Void)?, prelude: String?,
         libraries: [(String, [(String, LuaBinding)])], lentModules: [LentModule] = [],
         nativeScreens: [String: NativeScreenFactory] = [:], modulesDirectory: String? = BundledLua.modulesDirectory,
         compiledIn: AppSource? = nil) {
        self.modulesDirectory = modulesDirectory
        self.compiledIn = compiledIn
        self.source = source
        self.limits = limits
        self.printSink = printSink
        self.prelude = prelude
        self.libraries = libraries
        self.lentModules = lentModules
        var functions: [String: LentModule.Function] = [:]
        for module in lentModules {
            for (name, function) in module.functions { functions[module.name + "." + name] = function }
        }
        lentFunctions = functions
        self.nativeScreens = nativeScreens
    }

    /// The native modules every app gets, one per binding.
    static let appLibraries: [(String, [(String, LuaBinding)])] = [
        ("wayfinder.native.map", MapBinding.functions),
        ("wayfinder.native.codec", CodecBinding.functions),
        ("wayfinder.native.app", AppBinding.functions),
        ("wayfinder.native.navigator", NavigatorBinding.functions),
        ("wayfinder.native.context", ContextBinding.functions),
        ("wayfinder.native.screens", NativeScreenBinding.functions),
    ]

    /// The same loading of other files (a reload with new sources held in memory).
    func loading(_ other: AppSource) -> AppLoader {
        AppLoader(source: other, limits: limits, printSink: printSink, prelude: prelude, libraries: libraries,
                  lentModules: lentModules, nativeScreens: nativeScreens, modulesDirectory: modulesDirectory,
                  compiledIn: compiledIn)
    }

    /// A fresh sandboxed state: the app's and the bundled modules' roots, the print sink, and the
    /// native libraries registered (nothing has run yet).
    func makeState() throws(AppLoadError) -> LuaState {
        if let problem = LentModule.problem(lending: lentModules) ?? NativeScreens.problem(naming: nativeScreens.keys) {
            throw .configuration(problem)
        }
        let bundled = try BundledLua.source(directory: modulesDirectory, compiledIn: compiledIn)
        let state: LuaState
        do {
            state = try LuaState(limits: limits)
            state.appSource = source
            state.bundledSource = bundled
            state.printSink = printSink ?? { text in FileHandle.standardError.write(Data((text + "\n").utf8)) }
            for (name, functions) in Self.appLibraries + libraries { try state.registerLibrary(name, functions) }
            for module in lentModules { try state.registerLibrary(module.name, LentModuleBinding.functions(of: module)) }
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
            throw modulesDirectory.map { .modulesMissing(directory: $0) } ?? .bundledModulesMissing
        }
        return (hooks, deduce)
    }

    /// Runs the prelude, then the entry script: handed first to the function the prelude
    /// answers, if it answers one.
    func runEntry(in state: LuaState) throws(AppLoadError) {
        do {
            if let prelude, case .handle(let prepare)? = try state.run(source: prelude, chunkName: "=prelude").first {
                try state.runEntry(of: source, preparedBy: prepare)
                return
            }
            try state.runEntry(of: source)
        } catch {
            throw .script(error)
        }
    }
}

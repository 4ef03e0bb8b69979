import CLuaShim
import Foundation
import Wayfinder

/// The bundled `wayfinder.*` Lua modules (the repository's `lua/wayfinder/`): compiled into the
/// library at build time (the EmbedFiles plugin), so a program needs no file beside it to run an
/// app.
///
/// For working on the modules themselves, a program may name a directory holding
/// `wayfinder/init.lua` (the repository's `lua/`), whose files are read instead, as they are at
/// each load: an edit shows without a rebuild. Nothing reads the environment: the command line
/// sets ``modulesDirectory`` from `$WAYFINDER_LUA_PATH`, and a host's configuration may name one
/// of its own (`WayfinderHost.Configuration.luaModulesDirectory`).
package enum BundledLua {
    /// The directory whose modules apps loaded from now on read instead of the compiled-in ones,
    /// unless their configuration names another; nil (unless the program sets it): the
    /// compiled-in modules.
    package static var modulesDirectory: String? {
        get { directorySetting.withLock { $0 } }
        set { directorySetting.withLock { $0 = newValue } }
    }

    private static let directorySetting = Locked<String?>(nil)

    /// The environment variable the command line reads into ``modulesDirectory``.
    @available(*, deprecated, message: "the library reads no environment variable: set BundledLua.modulesDirectory or Configuration.luaModulesDirectory")
    package static let overrideVariable = "WAYFINDER_LUA_PATH"

    /// The directory of modules read instead of the compiled-in ones.
    @available(*, deprecated, renamed: "modulesDirectory")
    package static var overrideDirectory: String? { modulesDirectory }

    /// Where the modules come from for the next app: `directory` (by default
    /// ``modulesDirectory``), else the compiled-in copy. A directory without `wayfinder/init.lua`
    /// is an error rather than a silent fall back to the compiled-in copy.
    /// `compiledIn` is the compiled-in copy to use (by default the library's: ``adding(_:)``).
    package static func source(directory: String? = modulesDirectory, compiledIn: AppSource? = nil) throws(AppLoadError) -> AppSource {
        guard let directory, !directory.isEmpty else { return compiledIn ?? embedded }
        let modules = (directory as NSString).appendingPathComponent("wayfinder")
        guard FileManager.default.fileExists(atPath: (modules as NSString).appendingPathComponent("init.lua")) else {
            throw .modulesMissing(directory: directory)
        }
        return AppSource(files: .directory(modules), entry: "init.lua", name: "wayfinder")
    }

    /// A bundled file's bytes by its path under `wayfinder/` ("meta/luacheck_std.lua"), from where
    /// ``source(directory:)`` says; nil when there is no such file.
    package static func file(_ relativePath: String) throws(AppLoadError) -> [UInt8]? {
        let source = try source()
        let (buffer, length, status) = source.readModule(relativePath: relativePath)
        defer { free(buffer) }
        guard status == Int32(WF_READ_OK), let buffer else { return nil }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// The chunk name `require` gives the bundled file at `relativePath` under `wayfinder/`
    /// ("spec.lua" is "@wayfinder/spec.lua"), by which its frames are known.
    package static func chunkName(of relativePath: String) -> String {
        WF_BUNDLED_CHUNK_PREFIX + relativePath
    }

    /// The library's modules with `added` beside them (paths under `wayfinder/`, none of the
    /// library's own): the copy another target of the package compiles in for the states it
    /// makes (the test kit's spec runner), given to ``AppLoader``. Its compiled chunks are kept
    /// apart from the library's, so a state without the added modules never finds them; the
    /// caller keeps the answer for the process, as the library keeps ``embedded``.
    package static func adding(_ added: [String: [UInt8]]) -> AppSource {
        let files = EmbeddedLua.files.merging(added) { library, _ in library }
        return AppSource(files: .memory(files), entry: "init.lua", name: "wayfinder", compiledChunks: CompiledChunks())
    }

    /// The modules compiled into the library; their entry is `init.lua` (`require "wayfinder"`).
    /// Each is compiled once per process and kept as bytecode for every later state
    /// (``CompiledChunks``): an app host starts them at every launch and reload, a spec run once
    /// per spec file.
    static let embedded = AppSource(files: .memory(EmbeddedLua.files), entry: "init.lua", name: "wayfinder",
                                    compiledChunks: CompiledChunks())
}

import CLuaShim
import Foundation

/// The bundled `wayfinder.*` Lua modules (the repository's `lua/wayfinder/`): compiled into the
/// library at build time (the EmbedFiles plugin), so a program needs no file beside it to run an
/// app.
///
/// For working on the modules themselves, `$WAYFINDER_LUA_PATH` names a directory holding
/// `wayfinder/init.lua` (the repository's `lua/`), whose files are read instead, as they are at
/// each load: an edit shows without a rebuild.
public enum BundledLua {
    /// The environment variable that points the host at a directory of modules instead.
    public static let overrideVariable = "WAYFINDER_LUA_PATH"

    /// The directory `$WAYFINDER_LUA_PATH` names, when it is set and not empty.
    public static var overrideDirectory: String? {
        guard let path = ProcessInfo.processInfo.environment[overrideVariable], !path.isEmpty else { return nil }
        return path
    }

    /// Where the modules come from for the next app: the directory `$WAYFINDER_LUA_PATH` names,
    /// else the compiled-in copy. A variable naming a directory without `wayfinder/init.lua` is an
    /// error rather than a silent fall back to the compiled-in copy.
    public static func source() throws(AppLoadError) -> AppSource {
        guard let override = overrideDirectory else { return embedded }
        let modules = (override as NSString).appendingPathComponent("wayfinder")
        guard FileManager.default.fileExists(atPath: (modules as NSString).appendingPathComponent("init.lua")) else {
            throw .bundledModulesMissing
        }
        return AppSource(files: .directory(modules), entry: "init.lua", name: "wayfinder")
    }

    /// A bundled file's bytes by its path under `wayfinder/` ("meta/luacheck_std.lua"), from where
    /// ``source()`` says; nil when there is no such file.
    public static func file(_ relativePath: String) throws(AppLoadError) -> [UInt8]? {
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

    /// The modules compiled into the library; their entry is `init.lua` (`require "wayfinder"`).
    /// Each is compiled once per process and kept as bytecode for every later state
    /// (``CompiledChunks``): an app host starts them at every launch and reload, a spec run once
    /// per spec file.
    static let embedded = AppSource(files: .memory(EmbeddedLua.files), entry: "init.lua", name: "wayfinder",
                                    compiledChunks: CompiledChunks())
}

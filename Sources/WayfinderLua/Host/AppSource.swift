import CLuaShim
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where an app's Lua files come from: a directory on disk, or sources held in memory (an app
/// bundle's resources, a generated app). The entry script runs first; `require "screens.food"`
/// then looks for `screens/food.lua`, then `screens/food/init.lua`, among the same files either way,
/// with the same errors, the same chunk names ("screens/food.lua:3: ...") and the same size limit
/// on a source. The bundled `wayfinder.*` modules are held the same way (`BundledLua`).
public struct AppSource: Sendable {
    enum Files: Sendable {
        /// A directory's real files: a file whose real path (symbolic links resolved) leaves it is
        /// refused.
        case directory(String)
        /// Each file's bytes by its path relative to the app's root.
        case memory([String: [UInt8]])
    }

    let files: Files
    /// Where the chunks compiled from these files are kept for the next state that loads them:
    /// only the bundled modules compiled into the library have one (`BundledLua`); no public
    /// initializer sets any, and `require` loads bytecode for the bundled root alone (Require.c).
    let compiledChunks: CompiledChunks?
    /// The entry script's path relative to the app's root: `app.lua`, or the file a single-file
    /// app was given as.
    public let entry: String
    /// What the app is called when `wf.app` gives no name (its state file is named for it): a
    /// directory app's directory name, a single file's name without `.lua`, or the name given with
    /// sources in memory.
    public let name: String

    /// The directory `require` searches, nil for sources held in memory.
    public var directory: String? {
        if case .directory(let path) = files { return path }
        return nil
    }

    /// The app at `path`: a directory holding `app.lua`, or a single `.lua` file whose directory is
    /// where `require` searches.
    public init(path: String) throws(AppLoadError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw .notFound("no such file or directory: \(path)")
        }
        let url = URL(fileURLWithPath: path).standardizedFileURL
        compiledChunks = nil
        if isDirectory.boolValue {
            guard FileManager.default.fileExists(atPath: url.appendingPathComponent("app.lua").path) else {
                throw .notFound("\(path) has no app.lua (an app is a directory with app.lua, or a single .lua file)")
            }
            files = .directory(url.path)
            entry = "app.lua"
            name = url.lastPathComponent
        } else {
            guard url.pathExtension == "lua" else {
                throw .notFound("\(path) is not a .lua file (an app is a directory with app.lua, or a single .lua file)")
            }
            files = .directory(url.deletingLastPathComponent().path)
            entry = url.lastPathComponent
            name = url.deletingPathExtension().lastPathComponent
        }
    }

    /// An app held in memory: each file's source text by its path relative to the app's root, as
    /// it would lie in a directory (`app.lua`, `screens/food.lua`, `screens/menu/init.lua`).
    public init(sources: [String: String], entry: String = "app.lua", name: String = "app") throws(AppLoadError) {
        try self.init(bytes: sources.mapValues { Array($0.utf8) }, entry: entry, name: name)
    }

    /// An app held in memory, as bytes: Lua reads a source's bytes as they are, as it does a file's
    /// (only strings that cross into Swift must be UTF-8). A path must be relative and plain, its
    /// parts separated by single slashes, none of them empty, `.` or `..`; the entry must be one of
    /// the files. Sizes are checked as each file is read, as they are for a directory's files.
    public init(bytes: [String: [UInt8]], entry: String = "app.lua", name: String = "app") throws(AppLoadError) {
        for path in bytes.keys.sorted() where !Self.isPlainRelative(path) {
            throw .invalidSource("'\(path)' is not a plain relative path (parts separated by single slashes, none of them empty, '.' or '..')")
        }
        guard bytes[entry] != nil else {
            throw .notFound("the app's sources have no \(entry) (give it among the sources, or name another entry)")
        }
        files = .memory(bytes)
        compiledChunks = nil
        self.entry = entry
        self.name = name
    }

    /// Files as they are, unchecked (the bundled modules, tests), with where their compiled chunks
    /// are kept, if anywhere.
    init(files: Files, entry: String, name: String, compiledChunks: CompiledChunks? = nil) {
        self.files = files
        self.compiledChunks = compiledChunks
        self.entry = entry
        self.name = name
    }

    static func isPlainRelative(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        return !parts.contains { $0.isEmpty || $0 == "." || $0 == ".." || $0.contains("\0") }
    }

    /// The entry script's bytes and the chunk name it runs under (its path relative to the app's
    /// root).
    func entrySource() throws(ScriptError) -> (bytes: [UInt8], chunkName: String) {
        switch files {
        case .directory(let directory):
            let path = directory.hasSuffix("/") ? directory + entry : directory + "/" + entry
            do {
                return (try FileAccess.readFile(atPath: path), LuaState.chunkName(ofFile: path, in: directory))
            } catch {
                throw ScriptError(kind: error.isNotFound ? .notFound : .runtime, message: "cannot read \(path): \(error)")
            }
        case .memory(let sources):
            guard let bytes = sources[entry] else {
                throw ScriptError(kind: .notFound, message: "cannot read \(entry): \(FileAccess.ReadFailure.notFound)")
            }
            guard bytes.count <= FileAccess.sourceLimit else {
                throw ScriptError(kind: .runtime, message: "cannot read \(entry): \(FileAccess.ReadFailure.tooLarge(limit: FileAccess.sourceLimit))")
            }
            return (bytes, entry)
        }
    }

    /// A module's source for `require` (Require.c), in a malloc'd buffer the C caller frees, or the
    /// reason there is none.
    func readModule(relativePath: String) -> (buffer: UnsafeMutablePointer<CChar>?, length: Int, status: Int32) {
        switch files {
        case .directory(let directory):
            return FileAccess.readModule(relativePath: relativePath, under: directory)
        case .memory(let sources):
            guard let bytes = sources[relativePath] else { return (nil, 0, Int32(WF_READ_NOT_FOUND)) }
            return Self.copied(bytes, status: Int32(WF_READ_OK))
        }
    }

    /// What `require` loads for a module: its kept chunk when there is one (`WF_READ_PRECOMPILED`),
    /// else the source, as ``readModule(relativePath:)``, marked `WF_READ_KEEP` when the chunk
    /// compiled from it is to be kept.
    func readChunk(relativePath: String) -> (buffer: UnsafeMutablePointer<CChar>?, length: Int, status: Int32) {
        guard let compiledChunks else { return readModule(relativePath: relativePath) }
        if let bytecode = compiledChunks.chunk(relativePath) { return Self.copied(bytecode, status: Int32(WF_READ_PRECOMPILED)) }
        var read = readModule(relativePath: relativePath)
        if read.status == Int32(WF_READ_OK) { read.status = Int32(WF_READ_KEEP) }
        return read
    }

    private static func copied(_ bytes: [UInt8], status: Int32) -> (buffer: UnsafeMutablePointer<CChar>?, length: Int, status: Int32) {
        guard bytes.count <= FileAccess.sourceLimit else { return (nil, 0, Int32(WF_READ_TOO_LARGE)) }
        guard let buffer = malloc(max(bytes.count, 1))?.assumingMemoryBound(to: CChar.self) else {
            return (nil, 0, Int32(WF_READ_FAILED))
        }
        bytes.withUnsafeBytes { source in
            if let start = source.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: start, byteCount: source.count) }
        }
        return (buffer, bytes.count, status)
    }
}

import Foundation
import PackagePlugin

/// Compiles the files under a directory of the package into a target as named byte arrays, so the
/// built program needs no file beside it at run time (WayfinderLua embeds the bundled `wayfinder.*`
/// Lua modules this way).
///
/// A Swift target asks for it in Package.swift with `plugins: ["EmbedFiles"]`, and says what to
/// embed in an `embedded-files.json` in its own directory, listed under the target's `exclude:` (the
/// plugin reads it; SwiftPM would otherwise warn that it has no rule for a .json file):
///
///     [{ "type": "EmbeddedLua", "directory": "lua/wayfinder", "extensions": ["lua"] }]
///
/// Each entry gives the target an internal `enum EmbeddedLua { static let files: [String: [UInt8]] }`
/// keyed by each file's path under `directory` ("init.lua", "meta/wayfinder.lua"). `directory` is
/// relative to the package root (a plugin may read only the package) and may not climb out of it
/// with `..`; it may lie inside the target's own directory, whose files must then be excluded from
/// the target as well. Every regular file below it is embedded, hidden files and directories
/// excepted, or only those whose names end in one of `extensions` when given. `only` (paths under
/// `directory`) embeds just the files it names, `except` leaves out those it names: two targets
/// may so divide one directory between them (WayfinderTesting embeds the spec runner's modules of
/// `lua/wayfinder`, which WayfinderLua leaves out). A path either names that is no file is an error.
///
/// Rebuilds: the directory, its subdirectories and their files are the command's declared inputs,
/// so editing, adding or removing a file regenerates the source. SwiftPM asks the plugin for its
/// commands again only when it plans the build anew (Package.swift or a target's file list
/// changed); until then a file added since is embedded but is not itself an input, so an edit to
/// it that does not change its directory (saving in place rather than by rename) waits for the
/// next plan (`touch Package.swift`, or a clean build).
@main
struct EmbedFiles: BuildToolPlugin {
    static let configurationName = "embedded-files.json"

    struct Embedding: Decodable {
        let type: String
        let directory: String
        let extensions: [String]?
        let only: [String]?
        let except: [String]?
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget else {
            throw Failure(description: "EmbedFiles: \(target.name) is not a Swift target (the files are embedded as Swift source)")
        }
        let configuration = target.directoryURL.appending(path: Self.configurationName)
        let embeddings: [Embedding]
        do {
            embeddings = try JSONDecoder().decode([Embedding].self, from: Data(contentsOf: configuration))
        } catch {
            throw Failure(description: "EmbedFiles: cannot read \(configuration.path) (a JSON array of "
                + "{ \"type\", \"directory\", \"extensions\", \"only\", \"except\" }): \(error)")
        }
        let tool = try context.tool(named: "EmbedFilesTool")
        let package = context.package.directoryURL.standardizedFileURL
        return try embeddings.map { embedding in
            let root = try Self.directory(embedding.directory, inside: package)
            let output = context.pluginWorkDirectoryURL.appending(path: embedding.type + ".swift")
            return try .buildCommand(
                displayName: "Embedding \(embedding.directory) as \(embedding.type)",
                executable: tool.url,
                arguments: [output.path, embedding.type, root.path] + (embedding.only ?? []).flatMap { ["--only", $0] }
                    + (embedding.except ?? []).flatMap { ["--except", $0] } + (embedding.extensions ?? []),
                inputFiles: [configuration] + Self.inputs(under: root),
                outputFiles: [output]
            )
        }
    }

    /// `relative` under the package root; one that is absolute or climbs out of it is refused.
    static func directory(_ relative: String, inside package: URL) throws -> URL {
        let parts = relative.split(separator: "/")
        guard !relative.hasPrefix("/"), !parts.isEmpty, !parts.contains("..") else {
            throw Failure(description: "EmbedFiles: '\(relative)' is not a directory inside the package (give a relative path without '..')")
        }
        let url = package.appending(path: relative).standardizedFileURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw Failure(description: "EmbedFiles: no directory \(url.path)")
        }
        return url
    }

    /// `root`, and every directory and file below it: the tool decides which files are embedded
    /// and lists them when it runs, so a directory's change (a file added or removed) reruns it too.
    static func inputs(under root: URL) throws -> [URL] {
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { throw Failure(description: "EmbedFiles: cannot list \(root.path)") }
        var inputs = [root]
        for case let url as URL in walk { inputs.append(url) }
        return inputs
    }
}

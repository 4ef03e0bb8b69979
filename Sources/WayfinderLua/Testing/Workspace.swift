import Foundation

/// The files a spec file may touch (`wf.testing.copy_app`, `wf.testing.write`): copies of apps
/// in fresh temporary directories, removed when the spec file's run ends. Writing anywhere else
/// is refused, so a spec cannot change the app it tests in place.
final class Workspace {
    /// Where writes may go (the copied directory, or for a single-file app the temporary
    /// directory holding it), and the temporary directory to remove; real paths.
    private var copies: [(root: String, temporary: String)] = []

    deinit {
        for copy in copies { try? FileManager.default.removeItem(atPath: copy.temporary) }
    }

    /// Copies the app at `path` (a directory, or a single .lua file) into a new temporary
    /// directory; the copy's path.
    func copyApp(_ path: String) throws -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw WorkspaceError("copy_app: no such file or directory: \(path)")
        }
        let source = URL(fileURLWithPath: path).standardizedFileURL
        let directory = try Self.makeTemporaryDirectory(prefix: "wayfinder-app")
        let copy = directory + "/" + source.lastPathComponent
        do {
            try FileManager.default.copyItem(atPath: source.path, toPath: copy)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw WorkspaceError("copy_app: cannot copy \(path): \(error.localizedDescription)")
        }
        let temporary = FileAccess.realPath(directory) ?? directory
        let copied = temporary + "/" + source.lastPathComponent
        copies.append((isDirectory.boolValue ? copied : temporary, temporary))
        return copied
    }

    /// Writes `text` to `path`, which must lie inside a copy this workspace made, in a directory
    /// that exists. The file is written beside and renamed into place, as editors save.
    func write(_ path: String, _ text: String) throws {
        let file = try inside(path, for: "write")
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw WorkspaceError("write: cannot write \(path): \(error.localizedDescription)")
        }
    }

    /// The text of the file at `path`, inside a copy this workspace made.
    func read(_ path: String) throws -> String {
        let file = try inside(path, for: "read")
        guard let bytes = FileAccess.readBytes(atPath: file) else { throw WorkspaceError("read: cannot read \(path)") }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The real path of `path` (its directory's symlinks resolved), if it lies inside a copy.
    private func inside(_ path: String, for operation: String) throws -> String {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        guard let realParent = FileAccess.realPath(target.deletingLastPathComponent().path),
              copies.contains(where: { realParent == $0.root || realParent.hasPrefix($0.root + "/") }) else {
            throw WorkspaceError("\(operation): \(path) is not inside a copy made by wf.testing.copy_app")
        }
        return realParent + "/" + target.lastPathComponent
    }

    static func makeTemporaryDirectory(prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.path + "/\(prefix)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

struct WorkspaceError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation

/// The files a spec file may touch (`wf.testing.copy_app`, `wf.testing.write`): copies of apps
/// in fresh temporary directories, removed when the spec file's run ends. Writing anywhere else
/// is refused, so a spec cannot change the app it tests in place.
final class Workspace {
    /// The temporary directories holding the copies (real paths).
    private var roots: [String] = []

    deinit {
        for root in roots { try? FileManager.default.removeItem(atPath: root) }
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
        let root = FileAccess.realPath(directory) ?? directory
        roots.append(root)
        return root + "/" + source.lastPathComponent
    }

    /// Writes `text` to `path`, which must lie inside a copy this workspace made, in a directory
    /// that exists. The file is written beside and renamed into place, as editors save.
    func write(_ path: String, _ text: String) throws {
        let target = URL(fileURLWithPath: path).standardizedFileURL
        let parent = target.deletingLastPathComponent().path
        guard let realParent = FileAccess.realPath(parent),
              let root = roots.first(where: { realParent == $0 || realParent.hasPrefix($0 + "/") }) else {
            throw WorkspaceError("write: \(path) is not inside a copy made by wf.testing.copy_app")
        }
        let file = realParent + "/" + target.lastPathComponent
        guard file.hasPrefix(root + "/") else {
            throw WorkspaceError("write: \(path) is not inside a copy made by wf.testing.copy_app")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: file), options: .atomic)
        } catch {
            throw WorkspaceError("write: cannot write \(path): \(error.localizedDescription)")
        }
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

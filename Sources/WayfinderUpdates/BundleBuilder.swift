import Crypto
import Foundation
import WayfinderLua
import ZIPFoundation

/// Packs an app's Lua files into a signed bundle (docs/updates.md, "The format").
public enum BundleBuilder {
    /// Why a bundle could not be made.
    public struct BuildError: Error, CustomStringConvertible, Sendable {
        /// What went wrong, naming the file or setting at fault.
        public let reason: String
        /// The reason, as the command line prints it.
        public var description: String { reason }
        /// An error saying `reason`.
        public init(reason: String) { self.reason = reason }
    }

    /// The bundle of the `.lua` files under `directory` (its hidden files and directories left
    /// out), as `manifest` says, signed with `key`. `manifest.files` is filled from the files.
    public static func build(directory: String, app: String, version: Int, host: HostVersion = .current,
                             key: Curve25519.Signing.PrivateKey) throws(BuildError) -> [UInt8] {
        let root = URL(fileURLWithPath: directory).standardizedFileURL
        var files = [String: [UInt8]]()
        try collect(root, relative: "", into: &files)
        guard files["app.lua"] != nil else { throw BuildError(reason: "\(directory) has no app.lua") }
        return try bundle(files: files, manifest: BundleManifest(app: app, version: version, host: host, entry: "app.lua", files: [:]), key: key)
    }

    /// The bundle of `files`, as `manifest` says (its file hashes are filled in), signed with `key`.
    public static func bundle(files: [String: [UInt8]], manifest: BundleManifest, key: Curve25519.Signing.PrivateKey) throws(BuildError) -> [UInt8] {
        var manifest = manifest
        manifest.files = files.mapValues { SHA256.hash(data: $0).map { String(format: "%02x", $0) }.joined() }
        let manifestBytes = manifest.bytes
        let signature: Data
        do { signature = try key.signature(for: Data(manifestBytes)) } catch { throw BuildError(reason: "cannot sign: \(error)") }
        var entries: [(String, [UInt8])] = [(AppBundle.manifestEntry, manifestBytes), (AppBundle.signatureEntry, Array(signature))]
        entries += files.keys.sorted().map { (AppBundle.filesPrefix + $0, files[$0]!) }
        return try archive(entries)
    }

    /// A zip archive of `entries`, in order, each compressed; those named in `links` are
    /// symbolic links to their bytes (for the tests of what a reader refuses).
    public static func archive(_ entries: [(name: String, bytes: [UInt8])], links: Set<String> = []) throws(BuildError) -> [UInt8] {
        do {
            let archive = try Archive(data: Data(), accessMode: .create)
            for (name, bytes) in entries {
                let data = Data(bytes)
                try archive.addEntry(with: name, type: links.contains(name) ? .symlink : .file, uncompressedSize: Int64(data.count), modificationDate: Date(timeIntervalSince1970: 0),
                                     compressionMethod: .deflate) { position, size in
                    data.subdata(in: Int(position) ..< Int(position) + size)
                }
            }
            guard let data = archive.data else { throw BuildError(reason: "the archive has no bytes") }
            return Array(data)
        } catch let error as BuildError {
            throw error
        } catch {
            throw BuildError(reason: "cannot write the archive: \(error)")
        }
    }

    private static func collect(_ directory: URL, relative: String, into files: inout [String: [UInt8]]) throws(BuildError) {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() } catch {
            throw BuildError(reason: "cannot read \(directory.path): \(error.localizedDescription)")
        }
        for name in names where !name.hasPrefix(".") {
            let url = directory.appendingPathComponent(name)
            let path = relative.isEmpty ? name : relative + "/" + name
            var status = stat()
            guard lstat(url.path, &status) == 0 else { throw BuildError(reason: "cannot read \(url.path)") }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                try collect(url, relative: path, into: &files)
            case S_IFREG where name.hasSuffix(".lua"):
                if let problem = BundlePath.problem(path) { throw BuildError(reason: "\(url.path) cannot be bundled: \(problem)") }
                do { files[path] = try FileAccess.readFile(atPath: url.path, followingLinks: false) } catch {
                    throw BuildError(reason: "cannot read \(url.path): \(error)")
                }
                guard files.count <= BundleLimits.entries - 2 else { throw BuildError(reason: "more than \(BundleLimits.entries - 2) files") }
            case S_IFLNK where name.hasSuffix(".lua"):
                throw BuildError(reason: "\(url.path) is a link: a bundle holds files only")
            default:
                continue
            }
        }
    }
}

import Crypto
import Foundation
import Wayfinder
import WayfinderLua
import ZIPFoundation

/// A bundle whose signature, paths and hashes were checked (docs/updates.md): its manifest and
/// its files, and the app they make.
public struct AppBundle: Sendable {
    /// The archive's entries besides the app's files.
    static let manifestEntry = "manifest.json"
    static let signatureEntry = "manifest.sig"
    /// Where the app's files lie in the archive.
    static let filesPrefix = "app/"

    /// What the bundle says of itself, read from the signed manifest.
    public let manifest: BundleManifest
    /// Each file's bytes by its path inside the app.
    public let files: [String: [UInt8]]
    /// The manifest's bytes as signed, and the signature.
    public let manifestBytes: [UInt8]
    /// The Ed25519 signature of `manifestBytes` by one of the trusted keys.
    public let signature: [UInt8]

    /// The app the files make, called `name` (the shipped app's, so its state keeps its file).
    public func app(name: String) throws(AppLoadError) -> AppSource {
        try AppSource(bytes: files, entry: manifest.entry, name: name)
    }

    /// Reads and checks `bytes`, which come from anywhere: within the caps of ``BundleLimits``;
    /// a readable archive of files only, each at a plain path inside the bundle, none twice;
    /// signed by one of `trusting`; every file listed in the manifest with its hash, and no other.
    public init(bytes: [UInt8], trusting keys: [Curve25519.Signing.PublicKey]) throws(BundleRefusal) {
        guard bytes.count <= BundleLimits.archiveBytes else {
            throw BundleRefusal(.size, "the bundle is \(bytes.count) bytes, more than \(BundleLimits.archiveBytes)")
        }
        let entries = try Self.unpacked(bytes)
        guard let manifestBytes = entries[Self.manifestEntry] else { throw BundleRefusal(.manifest, "the bundle has no \(Self.manifestEntry)") }
        guard let signature = entries[Self.signatureEntry] else { throw BundleRefusal(.signature, "the bundle has no \(Self.signatureEntry)") }
        guard keys.contains(where: { $0.isValidSignature(Data(signature), for: Data(manifestBytes)) }) else {
            throw BundleRefusal(.signature, keys.isEmpty ? "no key is trusted" : "not signed by a trusted key")
        }
        let manifest = try BundleManifest(bytes: manifestBytes)
        var files = [String: [UInt8]]()
        for (name, content) in entries where name.hasPrefix(Self.filesPrefix) {
            let path = String(name.dropFirst(Self.filesPrefix.count))
            guard let expected = manifest.files[path] else { throw BundleRefusal(.hash, "'\(path)' is not in the manifest") }
            let actual = SHA256.hash(data: content).map { String(format: "%02x", $0) }.joined()
            guard actual == expected else { throw BundleRefusal(.hash, "'\(path)' does not match its SHA-256 in the manifest") }
            files[path] = content
        }
        for path in manifest.files.keys.sorted() where files[path] == nil {
            throw BundleRefusal(.hash, "'\(path)' is in the manifest but not in the bundle")
        }
        self.manifest = manifest
        self.files = files
        self.manifestBytes = manifestBytes
        self.signature = signature
    }

    /// Every entry's bytes by name, each name and kind checked before its bytes are read, and
    /// every count and size held to ``BundleLimits`` as it is read (never trusting the sizes the
    /// archive declares).
    private static func unpacked(_ bytes: [UInt8]) throws(BundleRefusal) -> [String: [UInt8]] {
        // Read from a private file, not from memory: the library's reader of archives in memory
        // traps on an offset past the end, which a damaged archive can make it seek to; a file
        // then reads as at its end, an error.
        let file: String
        do { file = try TemporaryFile.make(holding: Data(bytes), directory: NSTemporaryDirectory(), prefix: ".wayfinder-bundle-", sync: false) } catch {
            throw BundleRefusal(.storage, "cannot hold the bundle to read it: \(error.reason)")
        }
        defer { unlink(file) }
        let archive: Archive
        do { archive = try Archive(url: URL(fileURLWithPath: file), accessMode: .read) } catch {
            throw BundleRefusal(.archive, "not a zip archive (\(error))")
        }
        var listed = [Entry]()
        var names = Set<String>()
        var folded = Set<String>()
        for entry in archive {
            guard listed.count < BundleLimits.entries else { throw BundleRefusal(.size, "more than \(BundleLimits.entries) entries") }
            let name = entry.path
            guard names.insert(name).inserted, folded.insert(name.lowercased()).inserted else {
                throw BundleRefusal(.path, "'\(name)' appears twice (or twice in different case)")
            }
            switch entry.type {
            case .symlink: throw BundleRefusal(.path, "'\(name)' is a link")
            case .directory: throw BundleRefusal(.path, "'\(name)' is a directory (a bundle holds files only)")
            case .file: break
            }
            if name != manifestEntry && name != signatureEntry {
                guard name.hasPrefix(filesPrefix) else { throw BundleRefusal(.path, "'\(name)' is outside \(filesPrefix)") }
                if let problem = BundlePath.problem(String(name.dropFirst(filesPrefix.count))) {
                    throw BundleRefusal(.path, "'\(name)': \(problem)")
                }
            }
            guard entry.uncompressedSize <= UInt64(BundleLimits.entryBytes) else {
                throw BundleRefusal(.size, "'\(name)' unpacks to more than \(BundleLimits.entryBytes) bytes")
            }
            listed.append(entry)
        }
        var contents = [String: [UInt8]]()
        var total = 0
        for entry in listed {
            let name = entry.path
            let cap = name == manifestEntry ? BundleLimits.manifestBytes : name == signatureEntry ? 64 : BundleLimits.entryBytes
            var content = [UInt8]()
            do {
                _ = try archive.extract(entry, skipCRC32: false) { chunk in
                    total += chunk.count
                    guard content.count + chunk.count <= cap else { throw Overflow.entry(cap) }
                    guard total <= BundleLimits.unpackedBytes else { throw Overflow.total }
                    content.append(contentsOf: chunk)
                }
            } catch Overflow.entry(let cap) {
                throw BundleRefusal(.size, "'\(name)' unpacks to more than \(cap) bytes")
            } catch Overflow.total {
                throw BundleRefusal(.size, "the entries unpack to more than \(BundleLimits.unpackedBytes) bytes together")
            } catch {
                throw BundleRefusal(.archive, "'\(name)' cannot be unpacked (\(error))")
            }
            contents[name] = content
        }
        return contents
    }

    private enum Overflow: Error {
        case entry(Int)
        case total
    }
}

import Crypto
import Foundation
import Wayfinder
import WayfinderLua

/// The Ed25519 key that signs bundles, and the public keys an app trusts (docs/updates.md,
/// "Keys"). Each is one line of text: `wayfinder-ed25519-private:` or `wayfinder-ed25519-public:`
/// and the key's 32 bytes in base64.
public enum BundleKeys {
    static let privatePrefix = "wayfinder-ed25519-private:"
    static let publicPrefix = "wayfinder-ed25519-public:"

    /// A key file that cannot be used.
    public struct KeyError: Error, CustomStringConvertible, Sendable {
        /// The key file at fault.
        public let path: String
        /// Why it cannot be used (missing, unreadable, not a key of the expected kind).
        public let reason: String
        /// The path and the reason, as the command line prints them.
        public var description: String { "\(path): \(reason)" }
    }

    /// Makes a new pair as `directory/signing.key` (readable by its owner only) and
    /// `directory/signing.pub`; the directory is made when missing. Refuses to replace either
    /// file: a key replaced by mistake cannot sign the bundles its apps trust.
    public static func generate(in directory: String) throws(KeyError) -> (privatePath: String, publicPath: String) {
        let privatePath = directory + "/signing.key"
        let publicPath = directory + "/signing.pub"
        for path in [privatePath, publicPath] where FileManager.default.fileExists(atPath: path) || isLink(path) {
            throw KeyError(path: path, reason: "already exists; a new key is only made where there is none (move the old pair away first)")
        }
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw KeyError(path: directory, reason: "cannot make the directory: \(error.localizedDescription)")
        }
        let key = Curve25519.Signing.PrivateKey()
        try writeKeyFile(privatePrefix + key.rawRepresentation.base64EncodedString() + "\n", to: privatePath, mode: 0o600)
        do {
            try writeKeyFile(publicPrefix + key.publicKey.rawRepresentation.base64EncodedString() + "\n", to: publicPath, mode: 0o644)
        } catch {
            unlink(privatePath)
            throw error
        }
        return (privatePath, publicPath)
    }

    /// The signing key in `path`.
    public static func signingKey(at path: String) throws(KeyError) -> Curve25519.Signing.PrivateKey {
        let raw = try keyBytes(at: path, prefix: privatePrefix, kind: "private signing key")
        do { return try Curve25519.Signing.PrivateKey(rawRepresentation: raw) } catch {
            throw KeyError(path: path, reason: "not a private signing key (\(error))")
        }
    }

    /// The trusted public key in `path`.
    public static func trustedKey(at path: String) throws(KeyError) -> Curve25519.Signing.PublicKey {
        let raw = try keyBytes(at: path, prefix: publicPrefix, kind: "public key")
        do { return try Curve25519.Signing.PublicKey(rawRepresentation: raw) } catch {
            throw KeyError(path: path, reason: "not a public key (\(error))")
        }
    }

    /// A public key as its file holds it, for an app that carries its trusted keys as text.
    public static func trustedKey(text: String) -> Curve25519.Signing.PublicKey? {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix(publicPrefix), let raw = Data(base64Encoded: String(line.dropFirst(publicPrefix.count))), raw.count == 32 else { return nil }
        return try? Curve25519.Signing.PublicKey(rawRepresentation: raw)
    }

    private static func keyBytes(at path: String, prefix: String, kind: String) throws(KeyError) -> Data {
        let bytes: [UInt8]
        do { bytes = try FileAccess.readFile(atPath: path, limit: BundleLimits.keyFileBytes) } catch {
            throw KeyError(path: path, reason: "cannot read the \(kind): \(error)")
        }
        let line = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard line.hasPrefix(prefix) else {
            let other = prefix == privatePrefix ? publicPrefix : privatePrefix
            throw KeyError(path: path, reason: line.hasPrefix(other)
                ? "holds a \(prefix == privatePrefix ? "public" : "private") key, not a \(kind)"
                : "not a \(kind) (a key file starts with '\(prefix)')")
        }
        guard let raw = Data(base64Encoded: String(line.dropFirst(prefix.count))), raw.count == 32 else {
            throw KeyError(path: path, reason: "the \(kind) is not 32 bytes in base64")
        }
        return raw
    }

    private static func isLink(_ path: String) -> Bool {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: path)) != nil
    }

    /// Writes a new file (never an existing one, never through a link) with `mode` from the start.
    private static func writeKeyFile(_ text: String, to path: String, mode: mode_t) throws(KeyError) {
        let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard file >= 0 else { throw KeyError(path: path, reason: "cannot create: \(String(cString: strerror(errno)))") }
        defer { close(file) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        guard written == bytes.count, fchmod(file, mode) == 0, fsync(file) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(path)
            throw KeyError(path: path, reason: "cannot write: \(reason)")
        }
    }
}

/// A key bundles may be signed with, as ``BundleKeys/trustedKey(at:)`` reads it.
public typealias Curve25519PublicKey = Curve25519.Signing.PublicKey
/// A key that signs bundles, as ``BundleKeys/signingKey(at:)`` reads it.
public typealias Curve25519SigningKey = Curve25519.Signing.PrivateKey

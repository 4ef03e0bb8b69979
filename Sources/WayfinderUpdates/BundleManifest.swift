import OrderedCollections
import Wayfinder

/// What a bundle says of itself, signed (docs/updates.md, "The format"): the app it is for, its
/// version, the lowest host version it runs on, its entry script, and each file's SHA-256.
public struct BundleManifest: Equatable, Sendable {
    /// The manifest's `format` member, which tells a bundle's manifest from any other JSON.
    public static let format = "wayfinder.bundle"

    /// The app's name: bundles install only over bundles of the same app, and run only for it.
    public var app: String
    /// Counts up from 1: a bundle installs only over older ones.
    public var version: Int
    /// The lowest host version the bundle runs on.
    public var host: HostVersion
    /// The script that runs first (`app.lua`).
    public var entry: String
    /// Each file's SHA-256, in lowercase hex, by its path inside the app.
    public var files: [String: String]

    /// A manifest of these parts, as `BundleBuilder` writes and signs it.
    public init(app: String, version: Int, host: HostVersion, entry: String, files: [String: String]) {
        self.app = app
        self.version = version
        self.host = host
        self.entry = entry
        self.files = files
    }

    /// The manifest as its entry holds it: one line of JSON, its fields and files in a fixed
    /// order, so the same app always makes the same bytes.
    public var bytes: [UInt8] {
        var listed = OrderedDictionary<String, Value>()
        for path in files.keys.sorted() { listed[path] = .string(files[path]!) }
        let document: Value = .map([
            "format": .string(Self.format), "app": .string(app), "version": .int(Int64(version)),
            "host": .string(host.description), "entry": .string(entry), "files": .map(listed),
        ])
        // Strings and integers only: encoding cannot fail.
        return Array(((try? JSON.encode(document)) ?? "") .utf8)
    }

    /// The manifest in `bytes`, checked field by field.
    public init(bytes: [UInt8]) throws(BundleRefusal) {
        let document: Value
        do { document = try JSON.decode(bytes: bytes) } catch {
            throw BundleRefusal(.manifest, "not JSON: \(error)")
        }
        guard case .map(let fields) = document else { throw BundleRefusal(.manifest, "not a JSON object") }
        guard fields["format"] == .string(Self.format) else { throw BundleRefusal(.manifest, "its format is not '\(Self.format)'") }
        for key in fields.keys where !["format", "app", "version", "host", "entry", "files"].contains(key) {
            throw BundleRefusal(.manifest, "unknown field '\(key)'")
        }
        guard case .string(let app)? = fields["app"], !app.isEmpty, app.utf8.count <= 255 else {
            throw BundleRefusal(.manifest, "'app' must be a name (1 to 255 bytes)")
        }
        guard case .int(let version)? = fields["version"], version >= 1, version <= Int64(Int32.max) else {
            throw BundleRefusal(.manifest, "'version' must be a whole number from 1")
        }
        guard case .string(let hostText)? = fields["host"], let host = HostVersion(hostText) else {
            throw BundleRefusal(.manifest, "'host' must be a version such as 0.1.0")
        }
        guard case .string(let entry)? = fields["entry"] else { throw BundleRefusal(.manifest, "'entry' must be a path") }
        guard case .map(let listed)? = fields["files"] else { throw BundleRefusal(.manifest, "'files' must map each path to its SHA-256") }
        var files = [String: String]()
        for (path, hash) in listed {
            if let problem = BundlePath.problem(path) { throw BundleRefusal(.path, "'\(path)' in the manifest: \(problem)") }
            guard case .string(let hex) = hash, hex.utf8.count == 64, hex.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else {
                throw BundleRefusal(.manifest, "the hash of '\(path)' is not a SHA-256 in lowercase hex")
            }
            files[path] = hex
        }
        guard files[entry] != nil else { throw BundleRefusal(.manifest, "the entry '\(entry)' is not one of its files") }
        self.init(app: app, version: Int(version), host: host, entry: entry, files: files)
    }
}

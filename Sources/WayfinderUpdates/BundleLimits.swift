/// The caps on a bundle's bytes, which come from outside the app and are read before anything of
/// them is trusted (docs/sandbox.md, "Every limit, and what it covers"): the archive, its entries,
/// each entry and all of them unpacked, so a small archive cannot unpack into a large one.
public enum BundleLimits {
    /// The archive as downloaded or read from disk.
    public static let archiveBytes = 16 << 20
    /// Entries in the archive: the manifest, its signature and the app's files.
    public static let entries = 1_000
    /// One entry unpacked: the most a Lua source may hold (`FileAccess.sourceLimit`).
    public static let entryBytes = 16 << 20
    /// Every entry unpacked, together.
    public static let unpackedBytes = 64 << 20
    /// The manifest unpacked.
    public static let manifestBytes = 1 << 20
    /// A file's path inside the bundle, and each of its parts.
    public static let pathBytes = 1_024
    /// One part of such a path, between slashes (what most file systems allow a name).
    public static let pathPartBytes = 255
    /// A key file (`signing.key`, `signing.pub`).
    public static let keyFileBytes = 4_096
}

/// The paths a bundle's files may have (docs/updates.md, "The format"): relative, plain, and
/// inside the bundle once written anywhere, on any file system. Each part is letters, digits,
/// `_`, `-` and `.`, not starting with `.` (so no `.`, `..` or hidden file), at most
/// ``BundleLimits/pathPartBytes`` bytes; parts are joined by single slashes; the file ends in
/// `.lua`; the whole is at most ``BundleLimits/pathBytes`` bytes.
enum BundlePath {
    /// Why `path` is not such a path; nil when it is.
    static func problem(_ path: String) -> String? {
        if path.utf8.count > BundleLimits.pathBytes { return "longer than \(BundleLimits.pathBytes) bytes" }
        if path.hasPrefix("/") { return "an absolute path" }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        for part in parts {
            if part == ".." { return "leaves the bundle ('..')" }
            if part.isEmpty || part == "." { return "not a plain path (an empty or '.' part)" }
            if part.utf8.count > BundleLimits.pathPartBytes { return "a part longer than \(BundleLimits.pathPartBytes) bytes" }
            if part.hasPrefix(".") { return "a hidden name ('\(part)')" }
            if !part.unicodeScalars.allSatisfy({ $0.isASCII && (allowed.contains(Character($0))) }) {
                return "a name with characters other than letters, digits, '_', '-' and '.'"
            }
        }
        if !path.hasSuffix(".lua") { return "not a .lua file" }
        return nil
    }

    private static let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.")
}

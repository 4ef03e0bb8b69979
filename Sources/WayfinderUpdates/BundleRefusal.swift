/// Why a bundle was not installed, verified or run: the check that failed and what it found. A
/// refusal changes nothing (docs/updates.md, "The checks").
public struct BundleRefusal: Error, Equatable, CustomStringConvertible, Sendable {
    /// The checks, in the order they run.
    public enum Check: String, Sendable {
        /// The bytes are too large, or unpack into too much or too many entries.
        case size
        /// The bytes are not a readable archive.
        case archive
        /// An entry's path or kind: a link, a directory, `..`, an absolute path, a duplicate, an odd name.
        case path
        /// Not signed by a trusted key.
        case signature
        /// The signed manifest cannot be read.
        case manifest
        /// A file's bytes do not match the manifest's hash, or the files and the manifest disagree.
        case hash
        /// A bundle of another app.
        case app
        /// Not newer than the bundle installed.
        case version
        /// Needs a newer host.
        case host
        /// Does not load in a scratch host: a file that does not compile, a map that does not
        /// register, a state its `migrate` cannot restore, a screen it cannot make.
        case load
        /// The updates directory cannot be read or written.
        case storage
    }

    /// The check the bundle failed.
    public let check: Check
    /// What the check found, naming the file, key or version at fault.
    public let reason: String

    /// A refusal by `check`, saying `reason`.
    public init(_ check: Check, _ reason: String) {
        self.check = check
        self.reason = reason
    }

    /// The check and the reason, as the command line prints them.
    public var description: String { "\(check.rawValue) check failed: \(reason)" }
}

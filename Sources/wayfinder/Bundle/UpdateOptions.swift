import ArgumentParser
import WayfinderUpdates

/// `--updates DIR --trust KEY...`: where installed bundles are, and the keys they must be
/// signed with (docs/updates.md). Optional for the commands that run an app (without it they
/// run the app as given); required by `bundle install` and `bundle fetch`.
struct UpdateOptions: ParsableArguments {
    @Option(help: "The updates directory: run the newest installed bundle that verifies instead of the app (see `wayfinder bundle`).")
    var updates: String?

    @Option(help: "A public key (signing.pub) bundles may be signed with (repeatable, for rotation).")
    var trust: [String] = []

    func validate() throws {
        if updates != nil && trust.isEmpty { throw ValidationError("--updates needs at least one --trust KEY") }
        if updates == nil && !trust.isEmpty { throw ValidationError("--trust goes with --updates DIR") }
    }

    /// The bundles to run from, when `--updates` was given; ends the command with status 2 when a
    /// key cannot be read.
    func bundleUpdates() throws -> BundleUpdates? {
        guard let updates else { return nil }
        return BundleUpdates(directory: updates, trusting: try Self.keys(trust), warn: { Terminal.warning($0) })
    }

    static func keys(_ paths: [String]) throws -> [Curve25519PublicKey] {
        var keys = [Curve25519PublicKey]()
        for path in paths {
            do { keys.append(try BundleKeys.trustedKey(at: path)) } catch {
                Terminal.error("cannot trust the key \(error)")
                throw ExitCode(2)
            }
        }
        return keys
    }
}

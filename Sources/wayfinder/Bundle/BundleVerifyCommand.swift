import ArgumentParser
import WayfinderUpdates

/// `wayfinder bundle verify FILE --trust KEY...`: the checks that need no updates directory.
struct BundleVerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a bundle: its size, paths, signature (by one of the trusted keys) and every file's hash.",
        discussion: "Prints the manifest's app, version and host. Status 1 when the bundle is refused (the failed check on standard error), 2 when a key cannot be read.\n\nExample:\n  wayfinder bundle verify shop-2.wfb --trust keys/signing.pub"
    )

    @Argument(help: "The bundle file.")
    var bundle: String

    @Option(help: "A public key the bundle may be signed with (repeatable).")
    var trust: [String]

    func validate() throws {
        if trust.isEmpty { throw ValidationError("give at least one --trust KEY") }
    }

    func run() throws {
        let keys = try UpdateOptions.keys(trust)
        do {
            let verified = try AppBundle(bytes: try BundleFile.read(bundle), trusting: keys)
            let manifest = verified.manifest
            Terminal.print("\(bundle): \(manifest.app) version \(manifest.version), host \(manifest.host) or newer, \(manifest.files.count) files: verified")
        } catch let refusal as BundleRefusal {
            Terminal.error("\(bundle) is refused: \(refusal)")
            throw ExitCode(1)
        }
    }
}

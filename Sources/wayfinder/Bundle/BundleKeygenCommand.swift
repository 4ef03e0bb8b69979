import ArgumentParser
import WayfinderUpdates

/// `wayfinder bundle keygen DIR`: a new signing key pair.
struct BundleKeygenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keygen",
        abstract: "Make an Ed25519 key pair: DIR/signing.key (kept secret, mode 0600) and DIR/signing.pub (given to apps).",
        discussion: "Refuses to replace an existing key. Status 2 when the keys cannot be written.\n\nExample:\n  wayfinder bundle keygen keys"
    )

    @Argument(help: "The directory to write the keys in (made when missing).")
    var directory: String

    func run() throws {
        do {
            let made = try BundleKeys.generate(in: directory)
            Terminal.print("signing key: \(made.privatePath)")
            Terminal.print("public key: \(made.publicPath)")
        } catch {
            Terminal.error("cannot make the keys: \(error)")
            throw ExitCode(2)
        }
    }
}

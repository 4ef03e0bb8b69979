import ArgumentParser

/// `wayfinder bundle`: signed bundles of an app's Lua files, for updates over the air
/// (docs/updates.md).
struct BundleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bundle",
        abstract: "Make, check, install and fetch signed bundles of an app (updates over the air).",
        discussion: """
            A bundle is the app's Lua files with a manifest signed by an Ed25519 key. An app run \
            with --updates DIR --trust KEY runs the newest bundle installed in DIR that verifies, \
            and goes back to the one before when its launches keep failing (docs/updates.md).

            Example:
              wayfinder bundle keygen keys
              wayfinder bundle build shop --version 2 --key keys/signing.key -o shop-2.wfb
              wayfinder bundle install shop-2.wfb --updates updates --trust keys/signing.pub
              wayfinder open shop --updates updates --trust keys/signing.pub
            """,
        subcommands: [BundleKeygenCommand.self, BundleBuildCommand.self, BundleVerifyCommand.self, BundleInstallCommand.self, BundleFetchCommand.self]
    )
}

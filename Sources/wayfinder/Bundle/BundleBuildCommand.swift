import ArgumentParser
import Foundation
import WayfinderLua
import WayfinderUpdates

/// `wayfinder bundle build APP --version N --key KEY -o FILE`: the app's Lua files, signed.
struct BundleBuildCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Pack the app's .lua files with a signed manifest into a bundle.",
        discussion: """
            The manifest names the app (the directory's name unless --name), the bundle's \
            version, the lowest host version it runs on, and each file's SHA-256. Hidden files \
            and directories are left out; a link is refused. Status 2 when the bundle cannot be made.

            Example:
              wayfinder bundle build shop --version 2 --key keys/signing.key -o shop-2.wfb
            """
    )

    @Argument(help: "The app: a directory with app.lua.")
    var app: String

    @Option(help: "The bundle's version: a whole number, higher than every bundle installed before it.")
    var version: Int

    @Option(help: "The signing key (signing.key from `wayfinder bundle keygen`).")
    var key: String

    @Option(name: .shortAndLong, help: "The bundle file to write.")
    var output: String

    @Option(help: "The app's name in the manifest (default: the app directory's name).")
    var name: String?

    @Option(name: .customLong("min-host"), help: "The lowest host version the bundle runs on (default: this one's).")
    var minHost: String?

    func validate() throws {
        guard version >= 1 && version <= Int(Int32.max) else { throw ValidationError("--version must be a whole number from 1") }
        if let minHost, HostVersion(minHost) == nil { throw ValidationError("--min-host must be a version such as 0.1.0") }
    }

    func run() throws {
        do throws(any Error) {
            let source = try AppSource(path: app)
            guard let directory = source.directory, source.entry == "app.lua" else { throw BundleBuilder.BuildError(reason: "\(app) is not a directory with app.lua") }
            let signing = try BundleKeys.signingKey(at: key)
            let bytes = try BundleBuilder.build(directory: directory, app: name ?? source.name, version: version,
                                                host: minHost.flatMap(HostVersion.init) ?? .current, key: signing)
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
            Terminal.print("\(output): \(name ?? source.name) version \(version), \(bytes.count) bytes")
        } catch {
            Terminal.error("cannot build the bundle: \(error)")
            throw ExitCode(2)
        }
    }
}

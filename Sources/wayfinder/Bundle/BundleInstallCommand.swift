import ArgumentParser
import WayfinderLua
import WayfinderUpdates

/// `wayfinder bundle install FILE --updates DIR --trust KEY...`: checks, then installs.
struct BundleInstallCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Install a bundle into the updates directory, after every check; it runs from the next launch.",
        discussion: """
            The bundle must verify with a trusted key, be newer than every bundle installed, run \
            on this host, and load in a scratch host: every file compiles, the route map \
            registers, and the state in --state (when given) restores through its migrate, its \
            visible screen made (else the first screen is made). A refusal names the check that \
            failed (status 1) and changes nothing; an install is atomic.

            Example:
              wayfinder bundle install shop-2.wfb --updates updates --trust keys/signing.pub --state shop.json
            """
    )

    @Argument(help: "The bundle file.")
    var bundle: String

    @OptionGroup var updates: UpdateOptions

    @Option(help: "The app's navigation state file, restored in the scratch host through the bundle's migrate.")
    var state: String?

    @OptionGroup var host: HostOptions

    func validate() throws {
        if updates.updates == nil { throw ValidationError("give --updates DIR and --trust KEY") }
    }

    func run() throws {
        guard let target = try updates.bundleUpdates() else { return }
        try Self.install(try BundleFile.read(bundle), named: bundle, into: target, state: state, limits: host.limits)
    }

    /// Installs `bytes`, printing what was installed, or the refusal (status 1).
    static func install(_ bytes: [UInt8], named: String, into target: BundleUpdates, state: String?, limits: LuaLimits) throws {
        do {
            let manifest = try target.install(bytes, state: state.flatMap(BundleUpdates.savedState(at:)), limits: limits)
            Terminal.print("installed \(manifest.app) version \(manifest.version) in \(target.directory.path); it runs from the next launch")
        } catch {
            Terminal.error("\(named) is refused: \(error)")
            throw ExitCode(1)
        }
    }
}

import Crypto
import Foundation
import Wayfinder
import WayfinderLua

/// Signed bundles of an app, installed in an updates directory after every check, and run in
/// place of the app it shipped with (docs/updates.md). Set it as a host's
/// `Configuration.updates`: the host then runs the newest installed bundle that verifies and was
/// not marked bad, else the shipped app; a bundle whose launches keep failing before their first
/// screen is marked bad and the one before it runs, with the user's state.
///
/// ```swift
/// let updates = BundleUpdates(directory: updatesPath, trusting: [publicKey])
/// var configuration = WayfinderHost.Configuration(app: try AppSource(path: "flows"))
/// configuration.updates = updates
/// ```
public final class BundleUpdates: AppUpdates {
    /// Where bundles are installed, and what is kept of their launches and failures.
    public let directory: UpdatesDirectory
    /// The keys a bundle must be signed with one of (several, to rotate keys).
    public let trusted: [Curve25519.Signing.PublicKey]
    /// The host version bundles are checked against.
    public let hostVersion: HostVersion
    /// Told when a bundle is skipped or marked bad.
    private let warn: (String) -> Void
    /// The bundle the host runs; nil when it runs the shipped app.
    public private(set) var running: BundleManifest?
    /// Whether this launch went back from a bundle marked bad.
    public private(set) var rolledBack: String?

    /// The updates in `directory`, trusting bundles signed by one of `keys`, for a host of
    /// `hostVersion`; `warn` hears of a bundle skipped or marked bad.
    public init(directory: String, trusting keys: [Curve25519.Signing.PublicKey], hostVersion: HostVersion = .current,
                warn: @escaping (String) -> Void = { FileHandle.standardError.write(Data(("warning: " + $0 + "\n").utf8)) }) {
        self.directory = UpdatesDirectory(path: directory)
        self.trusted = keys
        self.hostVersion = hostVersion
        self.warn = warn
    }

    /// The newest installed bundle that verifies, is for `shipped` and runs on this host, never
    /// one marked bad; else `shipped`. A bundle whose last `LaunchMark.limit` launches in a row
    /// never got to their first screen is marked bad here first. The launch is counted before
    /// anything of the bundle runs.
    public func app(shipped: AppSource) -> AppSource {
        choose(shipped: shipped, counting: true)
    }

    /// The app ``app(shipped:)`` would run now, for a host that takes a newly installed bundle at
    /// once (`host.reload(from:)`, which keeps the tree): nothing is counted or marked.
    public func newestApp(shipped: AppSource) -> AppSource {
        choose(shipped: shipped, counting: false)
    }

    private func choose(shipped: AppSource, counting: Bool) -> AppSource {
        var record = directory.launch()
        let versions: [Int]
        do { versions = try directory.installed() } catch {
            warn("the updates in \(directory.path) are not used: \(error)")
            return shipped
        }
        for version in versions where directory.badReason(version) == nil {
            if counting, let failed = record, failed.version == version, failed.launches >= LaunchMark.limit {
                let why = "stopped the last \(failed.launches) launches before they showed a screen ("
                    + (failed.error.map { "the last one failed with \($0)" } ?? "the last one ended before it got there") + ")"
                do { try directory.markBad(version, because: why) } catch { warn("bundle \(version) could not be marked bad: \(error)") }
                warn("bundle \(version) \(why); it is marked bad and never run again")
                rolledBack = why
                record = nil
                continue
            }
            let bundle: AppBundle
            let source: AppSource
            do {
                bundle = try verified(version, app: shipped.name)
                source = try bundle.app(name: shipped.name)
            } catch {
                warn("bundle \(version) in \(directory.path) is not run: \(error)")
                continue
            }
            running = bundle.manifest
            guard counting else { return source }
            let launches = record?.version == version ? record!.launches + 1 : 1
            do { try directory.writeLaunch(.init(version: version, launches: launches)) } catch {
                warn("the launch of bundle \(version) is not counted: \(error)")
            }
            return source
        }
        running = nil
        if counting, record != nil { try? directory.writeLaunch(nil) }
        return shipped
    }

    /// The installed bundle `version`, checked again as at install (but the load).
    func verified(_ version: Int, app: String?) throws(BundleRefusal) -> AppBundle {
        let bundle = try AppBundle(bytes: directory.bytes(of: version), trusting: trusted)
        guard bundle.manifest.version == version else {
            throw BundleRefusal(.version, "installed as version \(version), but its manifest says \(bundle.manifest.version)")
        }
        if let app, bundle.manifest.app != app { throw BundleRefusal(.app, "a bundle of the app '\(bundle.manifest.app)', not '\(app)'") }
        guard bundle.manifest.host <= hostVersion else {
            throw BundleRefusal(.host, "needs host \(bundle.manifest.host), this host is \(hostVersion)")
        }
        return bundle
    }

    /// After going back from a bad bundle, the state's own launch mark counts that bundle's
    /// failures, not the state's: it goes, so the state is restored rather than set aside.
    public func launchBegins(stateStore: (any StateStore)?) {
        guard rolledBack != nil, let store = stateStore as? GuardedStateStore else { return }
        do { try store.removeLaunchMark() } catch { warn("the launch mark could not be removed: \(error.path): \(error.reason)") }
    }

    /// The launch showed its first screen: the running bundle's launch is no longer counted
    /// against it.
    public func launchReached() {
        guard running != nil else { return }
        do { try directory.writeLaunch(nil) } catch { warn("the launch of bundle \(running!.version) is still counted: \(error)") }
    }

    /// The launch failed before its first screen: the reason is kept with the running bundle's
    /// launch record, for the mark a bundle that keeps failing gets.
    public func launchFailed(_ error: Error) {
        guard let running, var record = directory.launch(), record.version == running.version else { return }
        record.error = "\(error)"
        try? directory.writeLaunch(record)
    }
}

import Foundation
import Wayfinder
import WayfinderLua

extension BundleUpdates {
    /// Installs the bundle in `bytes` (downloaded, read from a file), to run from the next
    /// launch, after every check of docs/updates.md: trusted signature, safe paths, hashes,
    /// the same app as the bundles installed, a newer version than all of them, a host new
    /// enough, and a load in a scratch host that restores `state` (the saved state, when there
    /// is one) through the bundle's `migrate`. A refusal names the check and changes nothing;
    /// the install is atomic. `app` is the shipped app's name, when known.
    @discardableResult
    public func install(_ bytes: [UInt8], app: String? = nil, state: NavigationState?, limits: LuaLimits = .standard) throws(BundleRefusal) -> BundleManifest {
        let bundle = try AppBundle(bytes: bytes, trusting: trusted)
        let manifest = bundle.manifest
        return try directory.locked { () throws(BundleRefusal) -> BundleManifest in
            let installed = try directory.installed()
            let expected = app ?? installed.lazy.compactMap { try? self.verified($0, app: nil).manifest.app }.first
            if let expected, manifest.app != expected {
                throw BundleRefusal(.app, "a bundle of the app '\(manifest.app)', not '\(expected)'")
            }
            if let newest = installed.first, manifest.version <= newest {
                throw BundleRefusal(.version, "version \(manifest.version) is not newer than version \(newest), installed")
            }
            guard manifest.host <= hostVersion else {
                throw BundleRefusal(.host, "needs host \(manifest.host), this host is \(hostVersion)")
            }
            try LoadCheck.check(bundle, name: app ?? manifest.app, state: state, limits: limits)
            try directory.install(bytes, version: manifest.version)
            return manifest
        }
    }

    /// The saved state in the file at `path` as a launch would find it, for ``install(_:app:state:limits:)``;
    /// nil when there is none or it cannot be read (a launch would then start fresh).
    public static func savedState(at path: String) -> NavigationState? {
        guard let bytes = try? FileAccess.readFile(atPath: path, limit: FileAccess.sourceLimit, followingLinks: false),
              let document = try? JSON.decode(bytes: bytes) else { return nil }
        return try? NavigationState(document: document)
    }
}

/// Installing a bundle an app downloaded its own way, from its bytes.
extension WayfinderHost {
    /// Installs a bundle the app downloaded (docs/updates.md, "What an app does"), checked
    /// against the state its store holds now. It runs from the next launch, or at once with
    /// `WayfinderHost.reload(from:)` and ``BundleUpdates/newestApp(shipped:)``.
    @discardableResult
    public func installBundle(_ bytes: [UInt8], into updates: BundleUpdates, shippedName: String? = nil) throws(BundleRefusal) -> BundleManifest {
        var state: NavigationState?
        if case .loaded(let saved)? = stateStore?.load() { state = saved }
        return try updates.install(bytes, app: shippedName, state: state, limits: limits)
    }
}

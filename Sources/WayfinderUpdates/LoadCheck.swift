import Wayfinder
import WayfinderLua

/// The last check before a bundle is installed (docs/updates.md, "The checks"): it loads in a
/// scratch host, as the next launch would load it, and nothing of the scratch host is kept.
/// Every file compiles; the entry runs and its route map registers; the saved state, when
/// there is one, is migrated by the bundle's `migrate` and restored, its visible screen made;
/// else the app's first screen is made.
enum LoadCheck {
    static func check(_ bundle: AppBundle, name: String, state: NavigationState?, limits: LuaLimits) throws(BundleRefusal) {
        do {
            let lua = try LuaState(limits: limits)
            for path in bundle.files.keys.sorted() {
                guard let text = String(validating: bundle.files[path]!, as: UTF8.self) else {
                    throw BundleRefusal(.load, "\(path) is not UTF-8 text")
                }
                _ = try lua.load(source: text, chunkName: "@" + path)
            }
        } catch let refusal as BundleRefusal {
            throw refusal
        } catch {
            throw BundleRefusal(.load, "a file does not compile: \(error)")
        }
        let host: WayfinderHost
        do {
            var configuration = WayfinderHost.Configuration(app: try bundle.app(name: name))
            configuration.limits = limits
            configuration.printSink = { _ in }
            configuration.warn = { _ in }
            host = try WayfinderHost(configuration)
        } catch {
            throw BundleRefusal(.load, "the app does not load: \(error)")
        }
        guard let state else {
            do { try host.start() } catch { throw BundleRefusal(.load, "its first screen cannot be made: \(error)") }
            return
        }
        guard state.app == host.stateName else {
            throw BundleRefusal(.load, "the saved state is the app '\(state.app ?? "")''s, and the bundle's app is called '\(host.stateName)': it would not be restored")
        }
        guard state.appVersion <= host.config.version else {
            throw BundleRefusal(.load, "the saved state is of app version \(state.appVersion), newer than the bundle's (\(host.config.version)): it would be set aside")
        }
        let migrated: NavigationState
        do { migrated = try host.migrated(state) } catch {
            throw BundleRefusal(.load, "the saved state cannot be migrated: \(error)")
        }
        do {
            if try !host.restore(from: migrated, strict: true) { try host.start() }
        } catch {
            throw BundleRefusal(.load, "the saved state cannot be restored: \(error)")
        }
    }
}

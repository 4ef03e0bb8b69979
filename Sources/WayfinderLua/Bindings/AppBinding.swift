import CLua
import Wayfinder

/// `wayfinder.native.app`: records what `wf.app { ... }` declared (checked in lua/wayfinder/app.lua).
enum AppBinding {
    static let functions: [(String, LuaBinding)] = [("configure", configure)]

    /// `file:line` where the function at `index` is defined (the app's `migrate`), nil when
    /// there is none there.
    private static func definition(of call: LuaCall, at index: Int) -> String? {
        guard call.type(index) == .function else { return nil }
        var record = lua_Debug()
        lua_pushvalue(call.thread, Int32(index))
        guard lua_getinfo(call.thread, ">S", &record) != 0 else { return nil }
        let source = withUnsafeBytes(of: record.short_src) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return "\(source):\(record.linedefined)"
    }

    static let configure: LuaBinding = { L in
        LuaCall.run(L) { call in
            let host = try AppHost.from(call)
            let fields = try call.value(1, name: "config")
            var config = AppConfig()
            config.name = fields["name"]?.stringValue
            config.root = fields["root"]?.stringValue
            // A tab is a URL, or { url = ..., title = ... } with a fixed title.
            for tab in fields["tabs"]?.arrayValue ?? [] {
                guard let url = tab.stringValue ?? tab["url"]?.stringValue else { continue }
                config.tabs.append(url)
                if let title = tab["title"]?.stringValue { config.tabTitles[url] = title }
            }
            for url in config.tabs + (config.root.map { [$0] } ?? []) {
                do { _ = try NavigationURL(url) } catch {
                    return [.null, .string("wf.app: '\(url)' is not a URL: \(error)")]
                }
            }
            if let persistence = fields["persistence"]?.stringValue {
                guard let mode = PersistenceMode(rawValue: persistence) else {
                    return [.null, .string("wf.app: unknown persistence '\(persistence)'")]
                }
                config.persistence = mode
            }
            config.expiration = fields["expiration"]?.doubleValue ?? 0
            if case .int(let version)? = fields["version"] { config.version = Int(version) }
            config.migration = definition(of: call, at: 2)
            host.config = config
            return [.bool(true)]
        }
    }
}

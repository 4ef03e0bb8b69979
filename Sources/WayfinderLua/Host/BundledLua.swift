import Foundation

/// Finds the bundled `wayfinder.*` Lua modules (the repository's `lua/wayfinder/`).
///
/// In order: `$WAYFINDER_LUA_PATH` (a directory holding `wayfinder/init.lua`), an installed layout
/// beside the executable (`../share/wayfinder/lua`), then the source checkout this was built from.
public enum BundledLua {
    static let sourceCheckout = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("lua").path

    public static func directory() -> String? {
        var candidates = [String]()
        if let path = ProcessInfo.processInfo.environment["WAYFINDER_LUA_PATH"], !path.isEmpty {
            candidates.append(path)
        }
        if let executable = Bundle.main.executableURL?.resolvingSymlinksInPath() {
            candidates.append(executable.deletingLastPathComponent().appendingPathComponent("../share/wayfinder/lua").standardized.path)
        }
        candidates.append(sourceCheckout)
        for candidate in candidates {
            let modules = (candidate as NSString).appendingPathComponent("wayfinder")
            if FileManager.default.fileExists(atPath: (modules as NSString).appendingPathComponent("init.lua")) {
                return modules
            }
        }
        return nil
    }
}

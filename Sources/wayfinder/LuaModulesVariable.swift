import Foundation
import WayfinderLua

/// `$WAYFINDER_LUA_PATH`: the command line's way to run on a directory of Wayfinder's Lua modules
/// instead of the compiled-in ones (for working on the modules themselves). The library reads no
/// environment; the command line hands the directory to it.
enum LuaModulesVariable {
    static let name = "WAYFINDER_LUA_PATH"

    /// Sets the library's modules directory from the variable, when it is set and not empty; a
    /// directory without the modules ends the command with status 2 and the reason.
    static func apply() {
        guard let directory = ProcessInfo.processInfo.environment[name], !directory.isEmpty else { return }
        do {
            _ = try BundledLua.source(directory: directory)
        } catch {
            FileHandle.standardError.write(Data(("\(name) is set to '\(directory)', which holds no complete wayfinder/ "
                + "modules (wayfinder/init.lua and the modules it requires); point it at the repository's lua/ directory, "
                + "or unset it to use the modules built into Wayfinder\n").utf8))
            exit(2)
        }
        BundledLua.modulesDirectory = directory
    }
}

/// Why an app could not be loaded. The message names the file and line where there is one.
public enum AppLoadError: Error, CustomStringConvertible {
    case notFound(String)
    case bundledModulesMissing
    case script(ScriptError)

    public var description: String {
        switch self {
        case .notFound(let why): return why
        case .bundledModulesMissing:
            return "the bundled Lua modules (lua/wayfinder) were not found; set WAYFINDER_LUA_PATH to the directory that holds wayfinder/init.lua"
        case .script(let error):
            switch error.kind {
            case .timeout, .memory: return "\(error.message) while loading the app"
            default: return error.message
            }
        }
    }

    /// The script's traceback, when the failure came from Lua.
    public var traceback: String? {
        if case .script(let error) = self { return error.traceback }
        return nil
    }
}

/// Why an app could not be loaded. The message names the file and line where there is one.
public enum AppLoadError: Error, CustomStringConvertible {
    /// No app at the path given: the message says what was looked for.
    case notFound(String)
    /// Sources given in memory that no directory could hold (a path with `..`, say).
    case invalidSource(String)
    /// The compiled-in Lua modules did not give the host what it needs.
    case bundledModulesMissing
    /// The directory of Lua modules the program named instead of the compiled-in ones
    /// (`BundledLua.modulesDirectory`) holds no complete `wayfinder/` modules.
    case modulesMissing(directory: String)
    /// What the host was given cannot be used: a lent module or a native screen with a name that
    /// cannot be (docs/embedding.md).
    case configuration(String)
    /// The app's code failed to load or run: the script's error, with its file and line.
    case script(ScriptError)

    /// What went wrong, naming the script's file and line when one is at fault.
    public var description: String {
        switch self {
        case .notFound(let why), .invalidSource(let why), .configuration(let why): return why
        case .bundledModulesMissing:
            return "the Lua modules compiled into Wayfinder did not give the host what it needs (a broken build?)"
        case .modulesMissing(let directory):
            return "the Lua modules directory '\(directory)' holds no complete wayfinder/ modules (wayfinder/init.lua and the modules it requires)"
        case .script(let error):
            switch error.kind {
            case .timeout, .memory: return "\(error.message) while loading the app"
            default: return error.message
            }
        }
    }

    /// The script's error, when the failure came from Lua.
    public var scriptError: ScriptError? {
        if case .script(let error) = self { return error }
        return nil
    }

    /// What kind of script error it was (a syntax error, a runtime error, a limit reached), when
    /// the failure came from Lua.
    public var kind: ScriptError.Kind? { scriptError?.kind }

    /// The file the error names (as Lua names chunks: "app.lua"), when it names one.
    public var file: String? { scriptError?.file }

    /// The line the error names, when it names one.
    public var line: Int? { scriptError?.line }

    /// The script's traceback, when the failure came from Lua.
    public var traceback: String? { scriptError?.traceback }
}

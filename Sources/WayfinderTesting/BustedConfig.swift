import Foundation
import Wayfinder
import WayfinderLua

/// What a project's `.busted` file sets for a run, as busted reads it: the `default` task's (over
/// `_all`'s) `ROOT` (where specs are searched when no path is given), `pattern` (the Lua pattern
/// a spec file's name matches) and `lpath` (the `package.path` templates searched before
/// `./?.lua;./?/init.lua`), and Wayfinder's own `time_limit` (each step's time budget, in ms).
/// The file is Lua: it runs in a sandboxed state of its own, with the
/// run's limits, and only the plain data it returns is read. A configuration file widens nothing:
/// its `ROOT`s and `lpath` templates must lead inside the project (the directory holding it), so
/// what a spec may read stays what the command line gave and the spec's own project.
package struct BustedConfig {
    package var roots: [String] = ["spec"]
    /// nil: busted's default, a name ending in `_spec.lua`.
    package var pattern: String?
    /// nil: busted's default, `./src/?.lua;./src/?/?.lua;./src/?/init.lua`.
    package var lpath: String?
    /// Wayfinder's own option: the time budget of each step, in milliseconds (as --time-limit,
    /// which wins over it); nil: the command line's.
    package var timeLimit: Int?
    /// Where patterns are matched (Lua's string.find), made when a pattern is set.
    private var matcher: (state: LuaState, find: Value.Handle)?

    package init() {}

    /// Reads `.busted` in `directory`, if there is one.
    package static func load(directory: String = ".", limits: LuaLimits = .standard) throws(ScriptError) -> BustedConfig {
        var config = BustedConfig()
        let path = directory + "/.busted"
        guard FileManager.default.fileExists(atPath: path) else { return config }
        let state = try LuaState(limits: limits)
        let answer = try state.runFile(path)
        guard case .map(let tasks)? = answer.first else {
            throw ScriptError(kind: .runtime, message: ".busted: must return a table of tasks (as `return { default = { ROOT = { \"spec\" } } }`)")
        }
        for task in ["_all", "default"] {
            guard case .map(let options)? = tasks[task] else { continue }
            switch options["ROOT"] {
            case .string(let root)?: config.roots = [root]
            case .array(let roots)?: config.roots = roots.compactMap(\.stringValue)
            default: break
            }
            if let pattern = options["pattern"]?.stringValue { config.pattern = pattern }
            if let lpath = options["lpath"]?.stringValue { config.lpath = lpath }
            if let limit = options["time_limit"] {
                guard case .int(let milliseconds) = limit, milliseconds >= 1, milliseconds <= Int64(Int32.max) else {
                    let shown = if case .int(let number) = limit { "\(number)" } else { limit.typeDescription }
                    throw ScriptError(kind: .runtime, message: "\(path): time_limit must be a whole number of milliseconds from 1 to \(Int32.max), got \(shown)")
                }
                config.timeLimit = Int(milliseconds)
            }
        }
        try config.usePattern(config.pattern, limits: limits)
        try config.checkInside(project: directory, file: path)
        return config
    }

    /// Refuses a `ROOT` or an `lpath` template that leads outside `project`: absolute outside it,
    /// escaping with `..`, or through a symbolic link (see ``ProjectPath``).
    private func checkInside(project: String, file: String) throws(ScriptError) {
        let projectShown = FileAccess.realPath(project) ?? project
        for root in roots where !ProjectPath.isInside(root, project: project) {
            throw ScriptError(kind: .runtime, message: "\(file): ROOT '\(root)' leads outside the project (\(projectShown)); "
                + "a .busted file names only paths inside its project: give a directory outside it on the command line")
        }
        if let lpath {
            let (inside, template) = ProjectPath.templatesAreInside(lpath, project: project)
            if !inside {
                throw ScriptError(kind: .runtime, message: "\(file): lpath template '\(template)' leads outside the project (\(projectShown)); "
                    + "a .busted file names only paths inside its project: give it with -m/--lpath on the command line")
            }
        }
    }

    /// Sets the pattern spec files' names match (nil: a name ending in `_spec.lua`).
    package mutating func usePattern(_ pattern: String?, limits: LuaLimits = .standard) throws(ScriptError) {
        self.pattern = pattern
        guard pattern != nil else { matcher = nil; return }
        let state = try LuaState(limits: limits)
        let answer = try state.run(source: "return function(name, pattern) return string.find(name, pattern) ~= nil end", chunkName: "=pattern")
        guard case .handle(let find)? = answer.first, let pattern else { return }
        do {
            try state.call(find, ["", .string(pattern)])
        } catch {
            throw ScriptError(kind: .runtime, message: "the pattern '\(pattern)' is not a Lua pattern: \(error.message)")
        }
        matcher = (state, find)
    }

    /// Whether a file found in a directory is a spec file: a `.lua` file whose name (without
    /// its directory) matches the pattern.
    package func isSpecFile(_ path: String) -> Bool {
        let name = (path as NSString).lastPathComponent
        guard let pattern, let matcher else { return name.hasSuffix("_spec.lua") }
        guard name.hasSuffix(".lua") else { return false }
        return (try? matcher.state.call(matcher.find, [.string(name), .string(pattern)]).first) == .bool(true)
    }

    /// The `package.path` a spec starts with.
    package var packagePath: String {
        (lpath ?? "./src/?.lua;./src/?/?.lua;./src/?/init.lua") + ";./?.lua;./?/init.lua"
    }
}

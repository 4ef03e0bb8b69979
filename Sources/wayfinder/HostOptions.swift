import ArgumentParser
import WayfinderLua

/// Options every command that loads an app shares: the limits its Lua state runs under.
struct HostOptions: ParsableArguments {
    @Option(name: .customLong("memory-limit"), help: "Memory limit of the app's Lua state, in MiB.")
    var memoryLimit: Int = 64

    @Option(name: .customLong("time-limit"), help: "Time budget of each call into Lua, in milliseconds (default: 1000).")
    var timeLimitOption: Int?

    /// The time budget asked for on the command line, else 1000 ms.
    var timeLimit: Int { timeLimitOption ?? 1000 }

    func validate() throws {
        guard memoryLimit >= 1 && memoryLimit <= 16_384 else { throw ValidationError("--memory-limit must be between 1 and 16384 MiB") }
        guard timeLimit >= 1 else { throw ValidationError("--time-limit must be at least 1 ms") }
    }

    var limits: LuaLimits {
        LuaLimits(memoryBytes: memoryLimit << 20, timeBudget: .milliseconds(timeLimit))
    }

    /// Loads the app, or ends the command with status 2 and the reason on standard error. What
    /// the app prints goes to standard error (`Terminal.scriptOutput`) unless
    /// `printSink` says otherwise.
    /// With `updates`, the newest good bundle installed runs instead of the app at `path`.
    func load(_ path: String, updates: (any AppUpdates)? = nil, printSink: @escaping (String) -> Void = Terminal.scriptOutput) throws -> WayfinderHost {
        do {
            return try embed(path, updates: updates, printSink: printSink)
        } catch {
            Terminal.error("cannot load app '\(path)': \(error)")
            throw ExitCode(2)
        }
    }

    /// The app at `path`, embedded as any Swift program embeds one (``WayfinderHost``).
    func embed(_ path: String, updates: (any AppUpdates)? = nil, printSink: @escaping (String) -> Void = Terminal.scriptOutput) throws(AppLoadError) -> WayfinderHost {
        var configuration = WayfinderHost.Configuration(app: try AppSource(path: path))
        configuration.limits = limits
        configuration.printSink = printSink
        configuration.updates = updates
        return try WayfinderHost(configuration)
    }
}

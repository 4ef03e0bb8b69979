import Foundation
import Wayfinder

/// What a hot reload did: how the route map changed, and what it had to leave behind (entries
/// whose URL no longer opens, values that could not be carried over).
public struct ReloadReport {
    /// The routes the new code added, removed or changed.
    public var changes: RouteChanges
    /// What could not be carried over (entries whose URL no longer opens, values of the old
    /// Lua state).
    public var warnings: [String]
}

/// Why a hot reload was refused; the running app is untouched. The message names the file and
/// line when a script is at fault.
public struct ReloadError: Error, CustomStringConvertible {
    /// Why, naming the script's file and line when one is at fault.
    public let message: String
    /// The script's error, when a script is at fault (its kind, file, line and frames).
    public let scriptError: ScriptError?
    /// The message.
    public var description: String { message }

    init(message: String, scriptError: ScriptError? = nil) {
        self.message = message
        self.scriptError = scriptError
    }

    /// What kind of script error it was (a syntax error, a runtime error, a limit reached), when
    /// a script is at fault.
    public var kind: ScriptError.Kind? { scriptError?.kind }

    /// The file the error names (as Lua names chunks: "app.lua"), when it names one.
    public var file: String? { scriptError?.file }

    /// The line the error names, when it names one.
    public var line: Int? { scriptError?.line }

    /// The Lua traceback, when a script raised the error.
    public var traceback: String? { scriptError?.traceback }
}

extension AppHost {
    /// The app made again from the files on disk (docs/design.md, "Hot reload"): a fresh Lua state
    /// runs the scripts, which registers and checks the new route map (patterns compile, no
    /// conflicts); the navigation tree is carried over by URL, and the visible controller is
    /// made by the new constructor with the state its `persist` hook gave. Nothing of `self`
    /// changes, so the caller swaps hosts in one step, or keeps this one when it throws.
    ///
    /// A directory app's files are read again; sources held in memory are values, so new ones come
    /// as `newSource` (the app's own are run again without it).
    package func reloaded(from newSource: AppSource? = nil) throws(ReloadError) -> (host: AppHost, report: ReloadReport) {
        // What the new code warns of, from its first line, goes into the report.
        let warnings = WarningLog()
        let fresh: AppHost
        do {
            fresh = try AppHost(loader: newSource.map(loader.loading) ?? loader, embedder: embedder, warnSink: { warnings.lines.append($0) })
        } catch {
            throw ReloadError(message: "reload failed, the app runs on unchanged: " + String(describing: error), scriptError: error.scriptError)
        }
        fresh.clock = clock
        fresh.stateStore = stateStore
        fresh.stateClaim = stateClaim
        // The same file as before the reload: a new wf.app name does not make it another app's.
        fresh.stateOwnerChecked = stateOwnerChecked
        fresh.openExternal = openExternal
        fresh.warned = warned
        let saved = capturedState(everyEntry: true)
        do {
            try carryAppContext(to: fresh)
            // A reload that raised the app's version migrates the tree it keeps, as a launch would;
            // the fresh app saves nothing until the tree is in place (the store is this app's).
            fresh.restoringState = true
            defer { fresh.restoringState = false }
            if try !fresh.restore(from: fresh.migrated(saved), strict: true) { try fresh.start() }
        } catch {
            throw ReloadError(message: "reload failed, the app runs on unchanged: " + String(describing: error),
                              scriptError: ScriptError.carried(by: error))
        }
        let changes: RouteChanges
        do {
            changes = RouteChanges(from: try routeReports(), to: try fresh.routeReports())
        } catch {
            throw ReloadError(message: "reload failed, the app runs on unchanged: " + error.message, scriptError: error)
        }
        fresh.warn = warn
        // What this app could not restore is still in the file; what the reload dropped was not.
        fresh.unrestored = UnrestoredEntries(seen: fresh.navigator.droppedSavedEntries,
                                             waiting: unrestored.waiting || navigator.droppedSavedEntries > unrestored.seen)
        return (fresh, ReloadReport(changes: changes, warnings: warnings.lines))
    }

    /// The app context's plain values, into the new app's (whose observers hear of them). Lua
    /// objects of the old state cannot cross into the new one; they are left out with a warning.
    private func carryAppContext(to fresh: AppHost) throws {
        guard let old = appContext, let new = fresh.appContext else { return }
        var leftOut: [String] = []
        for (key, value) in old.entries {
            guard let plain = value.persistable(at: "the app context: \(key)", leftOut: &leftOut) else { continue }
            for failure in try new.set(key, plain) {
                fresh.warn("observer of '\(failure.key)': \(String(describing: failure.error))")
            }
        }
        for item in leftOut { fresh.warn("not carried over: \(item) belongs to the old Lua state") }
    }

    private final class WarningLog {
        var lines: [String] = []
    }
}

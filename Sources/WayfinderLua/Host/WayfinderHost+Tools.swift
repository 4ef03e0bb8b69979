import Wayfinder

/// What the package's own tools (the command line, `serve`, the test kit) reach beyond an
/// embedding app's API. What acts on the app (navigating, typing, pressing, restoring) goes
/// through the host's members, under its thread rule and told to its observers, as an embedder's
/// calls are; ``app`` is left for what only reads the app or sets up a tool's own state: a spec
/// file's Lua state, a driven app's clock, route coverage.
extension WayfinderHost {
    /// The app as it runs now; a reload or a relaunch replaces it, so a tool asks again after one.
    package var app: AppHost { exclusivelyOrStop("reach the app") { current } }

    /// Patterns of equal precedence that could take the same URL (`wayfinder routes` warns of them).
    package func tieWarnings() -> [String] {
        exclusivelyOrStop("list the route ties") { current.tieWarnings() }
    }

    /// The moved routes `wf.map` declared, the most specific old pattern first (`wayfinder routes`).
    package var routeMoves: [RouteMoves.Move] {
        exclusivelyOrStop("list the moved routes") { current.navigator.moves.moves }
    }

    /// `saved` at this app's version, handed to the app's `migrate` when an older version saved
    /// it (an update's load check migrates a state as the next launch would).
    package func migrated(_ saved: NavigationState) throws -> NavigationState {
        try exclusively("migrate a state") { try current.migrated(saved) }
    }

    /// ``restore(from:)``, where `strict` makes a visible controller whose constructor fails throw
    /// rather than be dropped with a warning (an update's load check).
    @discardableResult
    package func restore(from saved: NavigationState, strict: Bool) throws -> Bool {
        try exclusively("restore") {
            try checkNotTelling("restore")
            return try current.restore(from: saved, strict: strict)
        }
    }
}

/// What the benchmark package (`@_spi(Benchmarks) import WayfinderLua`) runs in the app's Lua
/// state: loops timed inside it, and what its memory holds. No app needs them: they are not
/// public API, and the public-symbol list leaves them out.
extension WayfinderHost {
    /// Runs `source` in the app's state (its chunk named `chunkName`) and answers its results.
    @_spi(Benchmarks) @discardableResult
    public func runLua(_ source: String, chunkName: String) throws(ScriptError) -> [Value] {
        try app.state.run(source: source, chunkName: chunkName)
    }

    /// Calls the Lua function behind `function` with `arguments`.
    @_spi(Benchmarks) @discardableResult
    public func callLua(_ function: Value.Handle, _ arguments: [Value]) throws(ScriptError) -> [Value] {
        try app.state.call(function, arguments)
    }

    /// The global `name` of the app's state.
    @_spi(Benchmarks) public func luaGlobal(_ name: String) throws(ScriptError) -> Value {
        try app.state.global(name)
    }

    /// A full garbage collection of the app's state.
    @_spi(Benchmarks) public func collectLuaGarbage() throws(ScriptError) {
        try app.state.collectGarbage()
    }

    /// Bytes the app's state holds.
    @_spi(Benchmarks) public var luaMemoryInUse: Int { app.state.memoryInUse }

    /// Handles Swift holds on the app's Lua values.
    @_spi(Benchmarks) public var luaLiveHandleCount: Int { app.state.liveHandleCount }
}

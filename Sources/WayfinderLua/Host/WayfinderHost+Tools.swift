import Wayfinder

/// What the package's own tools (the command line, `serve`, the test kit) reach beyond an
/// embedding app's API: the app of the moment itself, for its navigator's finer operations, its
/// route table, its Lua state and its clock. Reached under the thread rule, as every member.
extension WayfinderHost {
    /// The app as it runs now; a reload or a relaunch replaces it, so a tool asks again after one.
    package var app: AppHost { exclusivelyOrStop("reach the app") { current } }

    /// Patterns of equal precedence that could take the same URL (`wayfinder routes` warns of them).
    package func tieWarnings() -> [String] {
        exclusivelyOrStop("list the route ties") { current.tieWarnings() }
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

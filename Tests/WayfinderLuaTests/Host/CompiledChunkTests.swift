import Foundation
import Testing
import Wayfinder
@testable import WayfinderLua

/// The bundled modules compiled into the library are compiled once per process: the first state
/// that loads one keeps its bytecode (``CompiledChunks``) and later states load that instead of
/// compiling the text again. Bytecode can break the VM, so nothing else ever loads as bytecode:
/// not an app's module, whatever its bytes or its source claims, and not a bundled module read
/// from anywhere but the copy compiled into the library.
@Suite("Bundled modules compiled once")
struct CompiledChunkTests {
    static func state(app: AppSource = Self.app, bundled: AppSource) throws -> LuaState {
        let state = try LuaState(limits: .standard)
        state.appSource = app
        state.bundledSource = bundled
        return state
    }

    static let app = try! AppSource(sources: ["app.lua": "return 1"])

    static func failure(_ source: String, in state: LuaState) -> ScriptError? {
        do {
            try state.run(source: source, chunkName: "test.lua")
            return nil
        } catch {
            return error
        }
    }

    static func isBytecode(_ bytes: [UInt8]?) -> Bool {
        bytes?.starts(with: [0x1B] + Array("Lua".utf8)) == true
    }

    /// Some bytecode: callable.lua's, which answers a function.
    static func someBytecode() throws -> [UInt8] {
        let kept = CompiledChunks()
        let bundled = AppSource(files: .memory(EmbeddedLua.files), entry: "init.lua", name: "wayfinder", compiledChunks: kept)
        _ = try state(bundled: bundled).run(source: "return require 'wayfinder.callable'")
        return try #require(kept.chunk("callable.lua"))
    }

    @Test func theFirstLoadKeepsTheChunkAndTheNextLoadsIt() throws {
        let kept = CompiledChunks()
        let bundled = AppSource(files: .memory(["init.lua": Array("return 'text'".utf8)]), entry: "init.lua", name: "wayfinder",
                                compiledChunks: kept)
        #expect(try Self.state(bundled: bundled).run(source: "return require 'wayfinder'") == ["text"])
        #expect(kept.paths == ["init.lua"])
        #expect(Self.isBytecode(kept.chunk("init.lua")))
        // What the next state loads is the kept chunk, not the text: here another module's.
        kept.keep(try Self.someBytecode(), for: "init.lua")
        #expect(try Self.state(bundled: bundled).run(source: "return type(require 'wayfinder')") == ["function"])
    }

    @Test func theModulesCompiledIntoTheLibraryAreKept() throws {
        _ = try AppHost(source: Self.app)
        let kept = try #require(BundledLua.embedded.compiledChunks)
        #expect(kept.paths.isSuperset(of: ["init.lua", "navigator.lua", "context.lua", "map.lua", "host.lua"]))
        #expect(kept.paths.allSatisfy { Self.isBytecode(kept.chunk($0)) })
        #expect(try AppHost(source: Self.app).routes.routes.isEmpty, "a host starts from the kept chunks")
    }

    /// The kept bytecode has its debug information: an error inside a bundled module names the
    /// same file, line and variable, with the same traceback, as the text does.
    @Test func aKeptChunkFailsAsTheTextDoes() throws {
        let kept = CompiledChunks()
        let bundled = AppSource(files: .memory(EmbeddedLua.files), entry: "init.lua", name: "wayfinder", compiledChunks: kept)
        let source = "local deduce = require 'wayfinder.constructor'\nreturn deduce(nil, { 'id' })"
        let fromText = try #require(Self.failure(source, in: try Self.state(bundled: bundled)))
        #expect(Self.isBytecode(kept.chunk("constructor.lua")))
        let fromBytecode = try #require(Self.failure(source, in: try Self.state(bundled: bundled)))
        #expect(fromText.message.hasPrefix("wayfinder/constructor.lua:"))
        #expect(fromText.message.contains("(local 'class')"))
        #expect(fromBytecode.message == fromText.message)
        #expect(fromBytecode.traceback == fromText.traceback)
        #expect(fromBytecode.traceback?.contains("wayfinder/constructor.lua:") == true)
    }

    @Test func anAppsModuleNeverLoadsAsBytecodeNorIsKept() throws {
        let bytecode = try Self.someBytecode()
        // Its bytes, and even a chunk kept for its source (which no public initializer can set
        // up): Require.c loads binary chunks for the bundled root alone.
        let kept = CompiledChunks()
        kept.keep(bytecode, for: "claimed.lua")
        let app = AppSource(files: .memory(["app.lua": Array("return 1".utf8), "raw.lua": bytecode, "claimed.lua": Array("return 2".utf8),
                                            "plain.lua": Array("return 3".utf8)]),
                            entry: "app.lua", name: "app", compiledChunks: kept)
        let state = try Self.state(app: app, bundled: BundledLua.embedded)
        for name in ["raw", "claimed"] {
            let error = try #require(Self.failure("return require '\(name)'", in: state), "\(name) loaded")
            #expect(error.message.contains("attempt to load a binary chunk (mode is 't')"), "\(name): \(error.message)")
        }
        #expect(try state.run(source: "return require 'plain'") == [3])
        #expect(kept.paths == ["claimed.lua"], "nothing of the app's is kept")
    }

    @Test func aBundledModuleReadFromElsewhereNeverLoadsAsBytecodeNorIsKept() throws {
        let bytecode = try Self.someBytecode()
        let directory = try TemporaryDirectory()
        try Data(bytecode).write(to: URL(fileURLWithPath: directory.subpath("init.lua")))
        for bundled in [AppSource(files: .memory(["init.lua": bytecode]), entry: "init.lua", name: "wayfinder"),
                        AppSource(files: .directory(directory.path), entry: "init.lua", name: "wayfinder")] {
            let error = try #require(Self.failure("return require 'wayfinder'", in: try Self.state(bundled: bundled)))
            #expect(error.message.contains("attempt to load a binary chunk (mode is 't')"), "\(error.message)")
        }
    }
}

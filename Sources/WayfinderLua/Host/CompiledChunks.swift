import Wayfinder

/// The bundled modules as this process compiled them (Lua bytecode, by each module's path): the
/// first state that loads a module compiles its text and hands the chunk here, and every later
/// state loads the chunk instead of compiling the text again (Require.c). Only the modules
/// compiled into the library have such a store (`BundledLua`), and `require` loads bytecode for
/// the bundled root alone, so no script's text ever becomes bytecode here.
///
/// Shared by every state of the process, on whatever thread each runs.
final class CompiledChunks: Sendable {
    private let chunks = Locked<[String: [UInt8]]>([:])

    func chunk(_ path: String) -> [UInt8]? {
        chunks.withLock { $0[path] }
    }

    func keep(_ bytecode: [UInt8], for path: String) {
        chunks.withLock { $0[path] = bytecode }
    }

    /// The paths of the modules kept so far.
    var paths: Set<String> {
        chunks.withLock { Set($0.keys) }
    }
}

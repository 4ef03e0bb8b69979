import CLua
import CLuaShim
import Wayfinder

/// String arguments that are the caller's data and may hold any bytes: a URL or a codec input
/// that is not UTF-8 is bad data, answered `nil, reason`, not an error raised in the script.
extension LuaCall {
    /// A string argument as text; bytes that are not UTF-8 are refused (`nil, reason`). A value
    /// of another type is the script's own mistake and is raised.
    package func text(_ index: Int, name: String) throws -> String {
        let bytes = try self.bytes(index, name: name)
        if let offset = bytes.withUnsafeBufferPointer(UTF8Check.firstInvalidByte(in:)) {
            throw Refusal("the \(name) is not valid UTF-8 (byte \(offset + 1) of \(bytes.count))")
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A string argument's bytes, whatever they are.
    package func bytes(_ index: Int, name: String) throws(ScriptError) -> [UInt8] {
        guard lua_type(thread, Int32(index)) == LUA_TSTRING else { throw typeError(index, name: name, expected: "string") }
        var reader = ValueReader(state: state, thread: thread)
        do {
            return try reader.readBytes(Int32(index))
        } catch {
            throw ScriptError(kind: error.limit ?? .conversion, message: error.reason)
        }
    }

}

extension LuaCall {
    /// Answers `bytes` as one Lua string, whatever they are (a file's contents): return what this
    /// answers from the binding's body.
    package func answer(bytes: [UInt8]) -> [Value] {
        bytes.withUnsafeBytes { wf_op_string(state.shim, $0.baseAddress, $0.count) }
        return []
    }
}

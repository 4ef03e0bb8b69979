import CLuaShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

// C calls these with the state's owner pointer. They do no Lua API work, so they cannot raise.

func luaPrintSink(_ owner: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?, _ length: Int) {
    guard let owner else { return }
    let state = Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
    state.printSink(String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self))
}

func luaWarningSink(_ owner: UnsafeMutableRawPointer?, _ text: UnsafePointer<CChar>?, _ length: Int) {
    guard let owner else { return }
    let state = Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
    state.warningSink(String(decoding: UnsafeRawBufferPointer(start: text, count: length), as: UTF8.self))
}

func luaModuleReader(
    _ owner: UnsafeMutableRawPointer?, _ root: Int32, _ relativePath: UnsafePointer<CChar>?,
    _ length: UnsafeMutablePointer<Int>?, _ status: UnsafeMutablePointer<Int32>?
) -> UnsafeMutablePointer<CChar>? {
    guard let owner, let relativePath, let length, let status else { return nil }
    let state = Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
    guard let source = root == Int32(WF_ROOT_BUNDLED) ? state.bundledSource : state.appSource else {
        status.pointee = Int32(WF_READ_NO_ROOT)
        return nil
    }
    let result = source.readChunk(relativePath: String(cString: relativePath))
    status.pointee = result.status
    length.pointee = result.length
    return result.buffer
}

func luaChunkKeeper(_ owner: UnsafeMutableRawPointer?, _ relativePath: UnsafePointer<CChar>?, _ bytes: UnsafePointer<CChar>?, _ length: Int) {
    guard let owner, let relativePath, let bytes else { return }
    let state = Unmanaged<LuaState>.fromOpaque(owner).takeUnretainedValue()
    let bytecode = Array(UnsafeRawBufferPointer(start: bytes, count: length))
    state.bundledSource?.compiledChunks?.keep(bytecode, for: String(cString: relativePath))
}

func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
        var offset = 0
        while offset < buffer.count {
            let written = write(2, buffer.baseAddress! + offset, buffer.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

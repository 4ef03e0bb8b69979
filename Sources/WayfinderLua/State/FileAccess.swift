import CLuaShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file reading require and runFile need, in plain POSIX calls.
enum FileAccess {
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// A module file under `directory`, read only if its real path (symlinks resolved) stays inside
    /// the directory's. The buffer is malloc'd; the C caller frees it.
    static func readModule(relativePath: String, under directory: String?) -> (
        buffer: UnsafeMutablePointer<CChar>?, length: Int, status: Int32
    ) {
        guard let directory, !directory.isEmpty else { return (nil, 0, Int32(WF_READ_NO_ROOT)) }
        let path = directory.hasSuffix("/") ? directory + relativePath : directory + "/" + relativePath
        var info = stat()
        guard stat(path, &info) == 0 else {
            let missing = errno == ENOENT || errno == ENOTDIR
            return (nil, 0, Int32(missing ? WF_READ_NOT_FOUND : WF_READ_FAILED))
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return (nil, 0, Int32(WF_READ_NOT_FOUND)) }
        guard let realRoot = realPath(directory), let realFile = realPath(path) else {
            return (nil, 0, Int32(WF_READ_FAILED))
        }
        guard realFile.hasPrefix(realRoot == "/" ? "/" : realRoot + "/") else {
            return (nil, 0, Int32(WF_READ_OUTSIDE_ROOT))
        }
        // The resolved path is what was checked, so that is what gets opened.
        guard let (buffer, length) = readMalloced(atPath: realFile) else { return (nil, 0, Int32(WF_READ_FAILED)) }
        return (buffer, length, Int32(WF_READ_OK))
    }

    static func readBytes(atPath path: String) -> [UInt8]? {
        guard let (buffer, length) = readMalloced(atPath: path) else { return nil }
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    /// The whole regular file at `path`, in a malloc'd buffer.
    private static func readMalloced(atPath path: String) -> (UnsafeMutablePointer<CChar>, Int)? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        var capacity = max(Int(info.st_size), 0) + 1
        guard var buffer = malloc(capacity)?.assumingMemoryBound(to: CChar.self) else { return nil }
        var length = 0
        while true {
            if length == capacity {
                capacity *= 2
                guard let grown = realloc(buffer, capacity)?.assumingMemoryBound(to: CChar.self) else {
                    free(buffer)
                    return nil
                }
                buffer = grown
            }
            let count = read(fd, buffer + length, capacity - length)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                free(buffer)
                return nil
            }
            length += count
        }
        return (buffer, length)
    }
}

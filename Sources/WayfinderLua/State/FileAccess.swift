import CLuaShim

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The file reading require and runFile need, in plain POSIX calls.
package enum FileAccess {
    package static func realPath(_ path: String) -> String? {
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
        do {
            let (buffer, length) = try readMalloced(atPath: realFile, limit: sourceLimit, followingLinks: true)
            return (buffer, length, Int32(WF_READ_OK))
        } catch {
            if case .tooLarge = error { return (nil, 0, Int32(WF_READ_TOO_LARGE)) }
            return (nil, 0, Int32(WF_READ_FAILED))
        }
    }

    /// The longest script source (an entry file, a module, a file a spec reads) Wayfinder reads,
    /// from a file or from memory (CLuaShim.h owns the figure).
    package static let sourceLimit = Int(WF_SOURCE_LIMIT_MIB) << 20

    /// Why a file was not read.
    package enum ReadFailure: Error, CustomStringConvertible {
        case notFound
        case notRegular
        case symbolicLink
        case tooLarge(limit: Int)
        case failed(errno: Int32)

        package var isNotFound: Bool {
            if case .notFound = self { return true }
            return false
        }

        package var description: String {
            switch self {
            case .notFound: return "no such file"
            case .notRegular: return "not a regular file"
            case .symbolicLink: return "a symbolic link"
            case .tooLarge(let limit): return "larger than \(limit >> 20) MiB"
            case .failed(let code): return String(cString: strerror(code))
            }
        }
    }

    package static func readBytes(atPath path: String) -> [UInt8]? {
        try? readFile(atPath: path)
    }

    /// The regular file at `path`, up to `limit` bytes. It is opened without blocking, so a FIFO
    /// or a device is refused rather than waited on; with `followingLinks` false, a symbolic link
    /// is refused too.
    package static func readFile(atPath path: String, limit: Int = sourceLimit, followingLinks: Bool = true) throws(ReadFailure) -> [UInt8] {
        let (buffer, length) = try readMalloced(atPath: path, limit: limit, followingLinks: followingLinks)
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length))
    }

    private static func readMalloced(atPath path: String, limit: Int, followingLinks: Bool) throws(ReadFailure) -> (UnsafeMutablePointer<CChar>, Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | (followingLinks ? 0 : O_NOFOLLOW))
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { throw .notFound }
            if code == ELOOP && !followingLinks { throw .symbolicLink }
            throw .failed(errno: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .failed(errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw .notRegular }
        guard Int(info.st_size) <= limit else { throw .tooLarge(limit: limit) }
        var capacity = max(Int(info.st_size), 0) + 1
        guard var buffer = malloc(capacity)?.assumingMemoryBound(to: CChar.self) else { throw .failed(errno: ENOMEM) }
        var length = 0
        while true {
            if length == capacity {
                capacity *= 2
                guard let grown = realloc(buffer, capacity)?.assumingMemoryBound(to: CChar.self) else {
                    free(buffer)
                    throw .failed(errno: ENOMEM)
                }
                buffer = grown
            }
            let count = read(fd, buffer + length, capacity - length)
            if count == 0 { break }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                free(buffer)
                throw .failed(errno: code)
            }
            length += count
            // A file that grows while it is read is held to the same limit.
            if length > limit {
                free(buffer)
                throw .tooLarge(limit: limit)
            }
        }
        return (buffer, length)
    }
}

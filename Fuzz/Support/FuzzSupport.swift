// Shared by every fuzz target (compiled into each one; see scripts/fuzz).
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The fuzzer's bytes as text. Invalid UTF-8 is repaired (U+FFFD), as every API under test takes a
/// String; percent escapes are how a URL carries arbitrary bytes.
func fuzzText(_ data: UnsafePointer<UInt8>?, _ size: Int) -> String {
    guard let data, size > 0 else { return "" }
    return String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
}

/// A property of the library that must hold for every input. A broken one is a crash, so libFuzzer
/// keeps the input as a reproducer like any other trap.
func require(_ condition: Bool, _ message: @autoclosure () -> String,
             file: StaticString = #fileID, line: UInt = #line) {
    if condition { return }
    fatalError("fuzz property broken: " + message(), file: file, line: line)
}

/// Text for messages: quoted and escaped so control characters stay visible.
func quoted(_ text: String) -> String { text.debugDescription }

/// Makes the file at `path` anew holding `bytes`.
func writeFile(_ bytes: [UInt8], to path: String) {
    unlink(path)
    let file = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    guard file >= 0 else { fatalError("cannot create \(path)") }
    defer { close(file) }
    var offset = 0
    while offset < bytes.count {
        let count = bytes[offset...].withUnsafeBytes { write(file, $0.baseAddress, $0.count) }
        guard count > 0 else { fatalError("cannot write \(path)") }
        offset += count
    }
}

/// The file's bytes, read with POSIX calls (Foundation's reading of an empty file leaks a buffer,
/// which the leak checker would report as the target's).
func readFile(_ path: String) -> [UInt8]? {
    let file = open(path, O_RDONLY | O_CLOEXEC)
    guard file >= 0 else { return nil }
    defer { close(file) }
    var bytes = [UInt8]()
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
        guard count > 0 else { return count == 0 ? bytes : nil }
        bytes += buffer[..<count]
    }
}

/// The fuzzer's bytes.
func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
}

/// A directory of this process's own for targets that work on files: under $WAYFINDER_FUZZ_TMP
/// (scripts/fuzz sets it and removes it afterwards), else on tmpfs when there is one. Whatever the
/// target left in it is removed when the process ends.
let fuzzWorkDirectory: String = {
    let environment = ProcessInfo.processInfo.environment
    let base = environment["WAYFINDER_FUZZ_TMP"] ?? (access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory())
    let path = base + "/wayfinder-fuzz-\(getpid())"
    mkdir(path, 0o700)
    atexit {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: fuzzWorkDirectory)) ?? [] {
            unlink(fuzzWorkDirectory + "/" + name)
        }
        rmdir(fuzzWorkDirectory)
    }
    return path
}()

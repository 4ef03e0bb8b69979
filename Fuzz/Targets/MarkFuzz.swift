// The small files beside a state file (Persistence/): the input is split at its first NUL byte into
// the content of a launch mark (`<state>.launching`, read by FileStateStore.launchMark at every
// launch) and of the owner's lock (`<state>.lock`, read by FileStateStore.claim).
//
// Properties: reading a mark never crashes; it answers a mark, which written back and read again is
// the same mark, or it refuses the file as not a mark and leaves it byte for byte. Claiming the
// state with such a lock (no other process holds it) never crashes or waits; it succeeds and signs
// the lock as this process's, or refuses a file that is not a lock and leaves it byte for byte.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Wayfinder

@_cdecl("LLVMFuzzerTestOneInput")
public func markFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let input = fuzzBytes(data, size)
    let split = input.firstIndex(of: 0) ?? input.endIndex
    let mark = Array(input[..<split])
    let lock = split < input.endIndex ? Array(input[(split + 1)...]) : []
    let store = FileStateStore(path: fuzzWorkDirectory + "/state.json")

    writeFile(mark, to: store.launchMarkPath)
    do {
        if let read = try store.launchMark() {
            require(read.launches >= 0, "a mark counts \(read.launches) launches")
            try store.writeLaunchMark(read)
            require(try store.launchMark() == read, "a mark written back reads as another: \(read)")
        } else {
            require(false, "a mark file that is there reads as none")
        }
    } catch {
        require(error.reason.hasSuffix("it was left as it is"), "a mark refused without leaving it: \(quoted(error.reason))")
        require(readFile(store.launchMarkPath) == mark, "a mark file refused was changed")
    }

    writeFile(lock, to: store.lockPath)
    do {
        let claim = try store.claim()
        require(claim != nil, "a file store claims nothing")
        let signed = readFile(store.lockPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
        require(signed.hasPrefix("{\"format\":\"wayfinder.lock\",\"pid\":\(getpid())"), "a claimed lock is not signed: \(quoted(signed))")
    } catch {
        require(error.reason.hasSuffix("it was left as it is"), "a lock refused without leaving it: \(quoted(error.reason))")
        require(readFile(store.lockPath) == lock, "a lock file refused was changed")
    }
    return 0
}

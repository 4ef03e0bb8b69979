import ArgumentParser
import WayfinderLua
import WayfinderUpdates

/// A bundle file named on the command line, read within ``BundleLimits/archiveBytes``.
enum BundleFile {
    static func read(_ path: String) throws -> [UInt8] {
        do { return try FileAccess.readFile(atPath: path, limit: BundleLimits.archiveBytes) } catch {
            Terminal.error("cannot read the bundle \(path): \(error)")
            throw ExitCode(2)
        }
    }
}

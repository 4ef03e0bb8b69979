import Foundation
import Testing
@testable import WayfinderLua

/// Paths given on the command line for what `wayfinder` writes are used as given: a report goes
/// only to a regular file (or a new one in a directory that exists), and a state path's directory
/// must exist. Anything else is refused with a reason, before any work, and left as it is.
@Suite("Command-line output paths")
struct OutputTargetTests {
    let directory: TemporaryDirectory

    init() throws {
        directory = try TemporaryDirectory()
        try directory.write("good_spec.lua", "it('passes', function() end)\n")
    }

    @Test func aJUnitReportIsOnlyWrittenToARegularFile() throws {
        try FileManager.default.createDirectory(atPath: directory.subpath("report"), withIntermediateDirectories: false)
        #expect(mkfifo(directory.subpath("fifo"), 0o600) == 0)
        let cases = [
            (directory.subpath("report"), "it exists and is not a regular file; it was left as it is"),
            (directory.subpath("fifo"), "it exists and is not a regular file; it was left as it is"),
            (directory.subpath("missing/report.xml"), "its directory \(directory.subpath("missing")) does not exist"),
        ]
        for (path, reason) in cases {
            let result = try WayfinderCLI.run(["test", directory.subpath("good_spec.lua"), "--junit", path])
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("cannot write the JUnit report to \(path): \(reason)"), "\(result.stderr)")
            #expect(!result.stdout.contains("1 passed"), "refused before the tests run")
        }
        var isDirectory: ObjCBool = false
        #expect(FileManager.default.fileExists(atPath: directory.subpath("report"), isDirectory: &isDirectory) && isDirectory.boolValue)
        #expect(!FileManager.default.fileExists(atPath: directory.subpath("missing")))
        let written = try WayfinderCLI.run(["test", directory.subpath("good_spec.lua"), "--junit", directory.subpath("report.xml")])
        #expect(written.status == 0)
        #expect(FileManager.default.fileExists(atPath: directory.subpath("report.xml")))
    }

    @Test func aStatePathsDirectoryMustExist() throws {
        let path = directory.subpath("nonexist/dir/x.json")
        for arguments in [["open", RunAndOpenTests.restaurant, "tt://menu/1", "--state", path],
                          ["run", RunAndOpenTests.restaurant, "--state", path]] {
            let result = try WayfinderCLI.run(arguments, input: "q\n")
            #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("cannot use the state file \(path): its directory \(directory.subpath("nonexist/dir")) does not exist"),
                    "\(result.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.subpath("nonexist")))
    }
}

import Foundation
import Testing

/// `--state` naming something that is not a state file is refused before the app runs, with a
/// clear reason (never Foundation's error text), and the path is left exactly as it was.
@Suite("--state paths")
struct StatePathTests {
    @Test(arguments: ["open", "run"])
    func aDirectoryOrFIFOIsRefusedUntouched(_ command: String) throws {
        let directory = try TemporaryDirectory()
        try directory.write("app/app.lua", "local wf = require 'wayfinder'\nwf.map:from('tt://a', function() return {} end)\nwf.app { root = 'tt://a', persistence = 'all' }\n")
        try directory.write("state-dir/inside.txt", "keep")
        #expect(mkfifo(directory.subpath("state-fifo"), 0o600) == 0)
        for (path, kind) in [(directory.subpath("state-dir"), "a directory"), (directory.subpath("state-fifo"), "a FIFO")] {
            let arguments = command == "open" ? ["open", directory.subpath("app"), "tt://a", "--state", path] : ["run", directory.subpath("app"), "--state", path]
            let result = try WayfinderCLI.run(arguments, input: "q\n")
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains("cannot use the state file \(path): it is \(kind), not a regular file; it was left as it is"), "\(result.stderr)")
            #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["app", "state-dir", "state-fifo"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.subpath("state-dir")) == ["inside.txt"])
    }
}

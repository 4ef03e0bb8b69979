import Foundation
import Testing

/// The tool behind the EmbedFiles plugin: the Swift it writes compiles and gives back every
/// embedded file's bytes exactly, text or not, and only the files asked for.
@Suite("EmbedFilesTool")
struct EmbedFilesToolTests {
    static let tool = WayfinderCLI.executable.deletingLastPathComponent().appendingPathComponent("EmbedFilesTool")

    static func run(_ executable: URL, _ arguments: [String], in directory: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    @Test func theGeneratedSourceHoldsTheBytesOfTheFilesAskedFor() throws {
        let directory = try TemporaryDirectory()
        let files: [String: [UInt8]] = [
            "text.txt": Array("quote \" backslash \\ tab \t newline \n nul \0 escape \u{1B} é ✓ \u{FEFF}".utf8),
            "sub/all-bytes.bin": (0...255).map { UInt8($0) },
            "sub/empty.txt": [],
            "left-out.html": Array("not asked for".utf8),
            ".hidden.txt": Array("hidden".utf8),
            ".hidden/inside.txt": Array("hidden".utf8),
        ]
        for (path, bytes) in files {
            let url = URL(fileURLWithPath: directory.subpath("input/" + path))
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
        }
        let generated = try Self.run(Self.tool, [directory.subpath("Embedded.swift"), "Embedded", directory.subpath("input"), "txt", "bin"],
                                     in: directory.path)
        #expect(generated.status == 0, "\(generated.output)")
        try directory.write("main.swift", """
            for (name, bytes) in Embedded.files.sorted(by: { $0.key < $1.key }) {
                print(name, bytes.map { String($0) }.joined(separator: ","))
            }
            """)
        let compiled = try Self.run(URL(fileURLWithPath: "/usr/bin/env"),
                                    ["swiftc", "-swift-version", "6", "Embedded.swift", "main.swift", "-o", "embedded"], in: directory.path)
        #expect(compiled.status == 0, "\(compiled.output)")
        let printed = try Self.run(URL(fileURLWithPath: directory.subpath("embedded")), [], in: directory.path)
        let expected = ["sub/all-bytes.bin", "sub/empty.txt", "text.txt"].map { name in
            name + " " + files[name]!.map { String($0) }.joined(separator: ",")
        }
        #expect(printed.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == expected + [""])
    }

    @Test func aTypeNameThatIsNotAnIdentifierIsRefused() throws {
        let directory = try TemporaryDirectory()
        try directory.write("input/a.txt", "a")
        let result = try Self.run(Self.tool, [directory.subpath("Out.swift"), "Not-A-Type", directory.subpath("input")], in: directory.path)
        #expect(result.status == 1)
        #expect(result.output == "EmbedFilesTool: 'Not-A-Type' is not a Swift type name\n")
        #expect(!FileManager.default.fileExists(atPath: directory.subpath("Out.swift")))
    }
}

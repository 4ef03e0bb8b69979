import Foundation
import Testing

/// Every code block in the README and docs/ runs, so the documents cannot drift from the code.
/// A block's info string says how (docs/testing.md, "Documentation snippets"):
///
/// - `lua app [open=URL,URL...]`: a whole app, written as app.lua of a new directory and opened with
///   `wayfinder open` (the URLs in order); it must load and every URL must open.
/// - `lua spec`: a spec, run by `wayfinder test` in a directory holding a copy of lua/examples.
/// - `LANG file=PATH`: written into the document's working directory (one per document, shared by
///   its blocks in order), for the `sh run` blocks after it.
/// - `sh run [in=repo] [status=N]`: run by `sh -e` in the document's working directory (or the
///   repository root) with the built `wayfinder` first on PATH and `$WAYFINDER_LUA_PATH` naming the
///   bundled lua/; it must exit 0 (or N).
/// - `LANG from=PATH`: a passage of the repository's file PATH (the embedding example's code), shown
///   as it is there: the block's lines must appear in the file, in order and together, so the guide
///   and the example cannot drift apart (the example itself is built and run by `scripts/test`).
/// - `text`, `json`: output shown, not code. `excerpt` anywhere in the info string: a fragment that
///   is not run; the few there are are counted below.
/// - Anything else (a bare fence, `lua` or `sh` without a mode) fails: every block says how it runs.
@Suite("documentation snippets")
struct DocSnippetTests {
    struct Block {
        let info: [String]
        let text: String
        let line: Int
        var language: String { info.first ?? "" }
        func option(_ name: String) -> String? {
            info.first { $0.hasPrefix(name + "=") }.map { String($0.dropFirst(name.count + 1)) }
        }
        func has(_ word: String) -> Bool { info.dropFirst().contains(word) }
    }

    static let root = WayfinderCLI.repositoryRoot.path

    static var documents: [String] {
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    static func blocks(_ markdown: String) -> [Block] {
        var blocks = [Block]()
        var open: (info: [String], line: Int)?
        var body = [String]()
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") {
                if let current = open {
                    blocks.append(Block(info: current.info, text: body.joined(separator: "\n") + "\n", line: current.line))
                    open = nil
                } else {
                    open = (line.dropFirst(3).split(separator: " ").map(String.init), index + 1)
                    body = []
                }
            } else if open != nil {
                body.append(String(line))
            }
        }
        return blocks
    }

    @Test(arguments: documents)
    func everyBlockRuns(document: String) throws {
        let markdown = try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8)
        let work = try TemporaryDirectory()
        let binDirectory = WayfinderCLI.executable.deletingLastPathComponent().path
        for block in Self.blocks(markdown) {
            let place = "\(document):\(block.line)"
            if block.info.contains("excerpt") || ["text", "json"].contains(block.language) { continue }
            if let path = block.option("from") {
                let file = try String(contentsOfFile: Self.root + "/" + path, encoding: .utf8)
                #expect(Self.holds(file, passage: block.text), "\(place): the block is not a passage of \(path) as it is now")
            } else if let path = block.option("file") {
                try work.write(path, block.text)
            } else if block.language == "lua" && block.has("app") {
                let app = try TemporaryDirectory()
                try app.write("app.lua", block.text)
                let urls = block.option("open").map { $0.split(separator: ",").map(String.init) } ?? []
                let result = try WayfinderCLI.run(["open", app.path] + urls)
                #expect(result.status == 0, "\(place): \(result.stderr)")
            } else if block.language == "lua" && block.has("spec") {
                let project = try TemporaryDirectory()
                try FileManager.default.copyItem(atPath: Self.root + "/lua/examples", toPath: project.path + "/lua/examples")
                try project.write("spec/doc_spec.lua", block.text)
                let result = try WayfinderCLI.run(["test"], directory: project.path)
                #expect(result.status == 0 && result.stdout.contains(" 0 failed"), "\(place): \(result.stdout)\(result.stderr)")
            } else if block.language == "sh" && block.has("run") {
                let directory = block.option("in") == "repo" ? Self.root : work.path
                let status = Int32(block.option("status") ?? "0") ?? 0
                let result = try Self.shell(block.text, directory: directory, path: binDirectory, stateHome: work.path + "/.state")
                #expect(result.status == status, "\(place): exit \(result.status)\n\(result.output)")
            } else {
                Issue.record("\(place): the block ```\(block.info.joined(separator: " ")) does not say how it runs (lua app, lua spec, file=, from=, sh run, text, json or excerpt)")
            }
        }
    }

    /// Whether `passage` is whole lines of `file`, in order and together.
    static func holds(_ file: String, passage: String) -> Bool {
        let lines = file.split(separator: "\n", omittingEmptySubsequences: false)
        var wanted = passage.split(separator: "\n", omittingEmptySubsequences: false)
        if wanted.last == "" { wanted.removeLast() }
        guard wanted.contains(where: { !$0.isEmpty }), wanted.count <= lines.count else { return false }
        return (0...(lines.count - wanted.count)).contains { start in lines[start..<(start + wanted.count)].elementsEqual(wanted) }
    }

    @Test func aPassageMustBeWholeLinesOfItsFile() {
        let file = "one\ntwo\nthree\n"
        #expect(Self.holds(file, passage: "two\nthree\n"))
        #expect(Self.holds(file, passage: "one\n"))
        #expect(!Self.holds(file, passage: "one\nthree\n"))
        #expect(!Self.holds(file, passage: "tw\n"))
        #expect(!Self.holds(file, passage: "three\nfour\n"))
        #expect(!Self.holds(file, passage: "\n"))
    }

    /// `sh -ec text` with `path` first on PATH, a state directory of its own and no terminal.
    static func shell(_ text: String, directory: String, path: String, stateHome: String) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-ec", text]
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["XDG_STATE_HOME"] = stateHome
        environment["WAYFINDER_LUA_PATH"] = root + "/lua"
        process.environment = environment
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func excerptsAreFew() throws {
        var excerpts = [String]()
        for document in Self.documents {
            let markdown = try String(contentsOfFile: Self.root + "/" + document, encoding: .utf8)
            excerpts += Self.blocks(markdown).filter { $0.info.contains("excerpt") }.map { "\(document):\($0.line)" }
        }
        #expect(excerpts.count <= 5, "\(excerpts)")
    }

    @Test func theRunnerRefusesAnUnmarkedBlock() {
        let blocks = Self.blocks("text\n```lua\nprint(1)\n```\n```lua app open=tt://a,tt://b\nx\n```\n")
        #expect(blocks.count == 2)
        #expect(blocks[0].language == "lua" && !blocks[0].has("app") && blocks[0].line == 2)
        #expect(blocks[1].option("open") == "tt://a,tt://b" && blocks[1].has("app"))
    }

    /// Every Markdown document a source file, script, spec or doc names, by its name or its path, is
    /// in the repository (or beside the file naming it).
    @Test func noFileNamesADocumentThatIsNotInTheRepository() throws {
        let named = try NSRegularExpression(pattern: #"([A-Za-z0-9_.-]+/)*[A-Za-z0-9_-]+\.md\b"#)
        var files = Self.documents
        for top in ["Sources", "Tests", "lua", "scripts", "Benchmarks/Sources", "Fuzz"] {
            let enumerator = FileManager.default.enumerator(atPath: Self.root + "/" + top)
            while let path = enumerator?.nextObject() as? String {
                if [".swift", ".lua", ".c", ".h", ".json", ".md"].contains(where: path.hasSuffix) || !path.contains(".") {
                    files.append(top + "/" + path)
                }
            }
        }
        var checked = 0
        for file in files {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: Self.root + "/" + file, isDirectory: &isDirectory), !isDirectory.boolValue,
                  let text = try? String(contentsOfFile: Self.root + "/" + file, encoding: .utf8) else { continue }
            for match in named.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                let name = String(text[Range(match.range, in: text)!])
                let beside = ((Self.root + "/" + file) as NSString).deletingLastPathComponent + "/" + name
                let exists = FileManager.default.fileExists(atPath: Self.root + "/" + name) || FileManager.default.fileExists(atPath: beside)
                #expect(exists, "\(file) names \(name)")
                checked += 1
            }
        }
        #expect(checked > 30)
    }
}

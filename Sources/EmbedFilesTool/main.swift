import Foundation

// Writes a Swift source file that holds the files under a directory as named byte arrays (the
// EmbedFiles plugin runs it at build time; Plugins/EmbedFiles/EmbedFiles.swift says how a target
// asks for it):
//
//   EmbedFilesTool OUTPUT TYPE ROOT [--only PATH]... [--except PATH]... [EXTENSION...]
//
// OUTPUT gets `enum TYPE { static let files: [String: [UInt8]] }`, internal to the target, keyed by
// each file's path under ROOT ("init.lua", "meta/wayfinder.lua") and holding its bytes exactly. Every
// regular file below ROOT is embedded, hidden files and directories excepted, or only those whose
// names end in "." and one of the EXTENSIONs when any is given; with --only, just the PATHs named;
// never a PATH named by --except. A PATH either names that is not such a file is an error, so a
// file renamed or removed cannot drop out of (or stay in) a target unnoticed. The files are listed here, when the
// command runs, rather than by the plugin: a file added since SwiftPM last asked the plugin for its
// commands changes its directory, which is a declared input, and is then found.
//
// Text (UTF-8) goes into a string literal with everything outside printable ASCII escaped; other
// bytes go into a string literal of one scalar per byte. Either way each file is one literal token,
// so compiling it takes time in proportion to its bytes, not an array literal's type checking.

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("EmbedFilesTool: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
let usage = "usage: EmbedFilesTool OUTPUT TYPE ROOT [--only PATH]... [--except PATH]... [EXTENSION...]"
guard arguments.count >= 3 else { fail(usage) }
let output = arguments[0]
let typeName = arguments[1]
let root = URL(fileURLWithPath: arguments[2]).standardizedFileURL
/// The EXTENSIONs, and the paths of --only (nil: none given) and --except.
let (extensions, only, except): ([String], Set<String>?, Set<String>) = {
    var extensions: [String] = []
    var only: Set<String>?
    var except: Set<String> = []
    var rest = arguments.dropFirst(3).makeIterator()
    while let argument = rest.next() {
        switch argument {
        case "--only", "--except":
            guard let path = rest.next() else { fail("\(argument) needs a path; \(usage)") }
            if argument == "--only" { only = (only ?? []).union([path]) } else { except.insert(path) }
        default:
            extensions.append(argument)
        }
    }
    return (extensions, only, except)
}()

func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first, first == "_" || first.isASCIILetter else { return false }
    return text.unicodeScalars.allSatisfy { $0 == "_" || $0.isASCIILetter || ("0"..."9").contains($0) }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}

guard isIdentifier(typeName) else { fail("'\(typeName)' is not a Swift type name") }

/// The scalars as the inside of a Swift string literal: printable ASCII as it is (but `\` and `"`),
/// everything else escaped.
func literal(_ scalars: some Sequence<Unicode.Scalar>) -> String {
    var text = ""
    for scalar in scalars {
        switch scalar {
        case "\\": text += "\\\\"
        case "\"": text += "\\\""
        case "\n": text += "\\n"
        case "\t": text += "\\t"
        case " "..."~": text.unicodeScalars.append(scalar)
        default: text += "\\u{" + String(scalar.value, radix: 16) + "}"
        }
    }
    return text
}

/// The regular files under `root` to embed, as sorted paths relative to it.
func embeddedNames() -> [String] {
    guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
    else { fail("cannot list \(root.path)") }
    let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
    var names: [String] = []
    for case let url as URL in walk {
        guard (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true else { continue }
        let path = url.standardizedFileURL.path
        guard path.hasPrefix(prefix) else { continue }
        let name = String(path.dropFirst(prefix.count))
        if !extensions.isEmpty, !extensions.contains(where: { name.hasSuffix("." + $0) }) { continue }
        names.append(name)
    }
    let listed = Set(names)
    for path in (only ?? []).union(except).sorted() where !listed.contains(path) {
        fail("no file \(path) to embed under \(root.path)")
    }
    return names.filter { (only?.contains($0) ?? true) && !except.contains($0) }.sorted()
}

var entries: [String] = []
for name in embeddedNames() {
    let path = root.appendingPathComponent(name).path
    guard let data = FileManager.default.contents(atPath: path) else { fail("cannot read \(path)") }
    let bytes = [UInt8](data)
    let value: String
    if let text = String(validating: bytes, as: UTF8.self) {
        value = "Array(\"\(literal(text.unicodeScalars))\".utf8)"
    } else {
        value = "bytes(latin1: \"\(literal(bytes.map { Unicode.Scalar($0) }))\")"
    }
    entries.append("        \"\(literal(name.unicodeScalars))\": \(value),")
}

let source = """
    // Generated at build time by EmbedFilesTool from \(literal(root.lastPathComponent.unicodeScalars)): do not edit.

    enum \(typeName) {
        /// Each file's bytes, by its path relative to the embedded directory.
        static let files: [String: [UInt8]] = [
    \(entries.isEmpty ? "        :" : entries.joined(separator: "\n"))
        ]

        private static func bytes(latin1 text: String) -> [UInt8] {
            text.unicodeScalars.map { UInt8($0.value) }
        }
    }

    """

do {
    try Data(source.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
} catch {
    fail("cannot write \(output): \(error.localizedDescription)")
}

import Foundation
import Testing
import TestSupport
@testable import WayfinderLua
@testable import WayfinderTesting

/// Where a configured path leads, over generated path shapes (`.`, `..`, `//`, absolute starts,
/// symbolic links in and out, trailing slashes), against a model of the directory tree walked one
/// component at a time.
@Suite("Paths a project's configuration names")
struct ProjectPathTests {
    /// base/project/{spec/deep/, in -> spec, out -> ../outside}, base/outside/dir/.
    enum Node { case directory([String: Node]), link([String]) }
    static let tree: [String: Node] = [
        "project": .directory([
            "spec": .directory(["deep": .directory([:])]),
            "in": .link(["project", "spec"]),
            "out": .link(["outside"]),
        ]),
        "outside": .directory(["dir": .directory([:])]),
    ]

    /// The model's walk: a position under base (nil above it), as names. A name is resolved while
    /// the position exists (a link replaced by its target); below a missing one it is appended,
    /// and `..` pops.
    static func modelWalk(_ components: [String], from start: [String]?) -> [String]? {
        var position = start
        for component in components where component != "." && !component.isEmpty {
            // Above base, names from the model's alphabet never lead back into it.
            guard let current = position else { continue }
            if component == ".." {
                position = current.isEmpty ? nil : Array(current.dropLast())
                continue
            }
            let children: [String: Node]? = current.isEmpty ? tree : {
                if case .directory(let inner)? = node(at: current) { return inner } else { return nil }
            }()
            switch children?[component] {
            case .link(let target)?: position = target
            default: position = current + [component]
            }
        }
        return position
    }

    static func node(at names: [String]) -> Node? {
        var children = tree
        var found: Node?
        for name in names {
            guard let child = children[name] else { return nil }
            found = child
            guard case .directory(let inner) = child else { return nil }
            children = inner
        }
        return found
    }

    @Test func generatedShapesLeadWhereTheModelSays() throws {
        let base = try TemporaryDirectory()
        try base.write("project/spec/deep/x.lua", "")
        try base.write("outside/dir/x.lua", "")
        try base.link("project/in", to: base.subpath("project/spec"))
        try base.link("project/out", to: base.subpath("outside"))
        let realBase = try #require(FileAccess.realPath(base.path))
        let project = base.subpath("project")
        let alphabet = [".", "..", "", "spec", "deep", "in", "out", "dir", "missing"]
        var generator = SeededGenerator(seed: 2026)
        var checked = 0
        for _ in 0..<3000 {
            let count = Int(generator.next() % 7)
            let components = (0..<count).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] }
            let start: (prefix: String, position: [String]?)
            switch generator.next() % 4 {
            case 0: start = ("./", ["project"])
            case 1: start = (realBase + "/project/", ["project"])
            case 2: start = (realBase + "/outside/", ["outside"])
            default: start = ("/", nil)
            }
            let trailing = generator.next() % 2 == 0 ? "/" : ""
            let path = start.prefix + components.joined(separator: "/") + trailing
            let expected = Self.modelWalk(components, from: start.position)
            let inside = expected.map { $0.first == "project" } ?? false
            #expect(ProjectPath.isInside(path, project: project) == inside, "\(path)")
            if inside != ProjectPath.isInside(path, project: project) { break }
            checked += 1
        }
        #expect(checked == 3000)
    }

    @Test func templatesAreJudgedWithTheirOwnDotsAndStarts() throws {
        let base = try TemporaryDirectory()
        try base.write("project/src/a.lua", "")
        let project = base.subpath("project")
        #expect(ProjectPath.templatesAreInside("./src/?.lua;./src/?/init.lua;?.lua;;", project: project).inside)
        #expect(ProjectPath.templatesAreInside("./?/../src/?.lua", project: project).inside)
        for escaping in ["../?.lua", "/tmp/?.lua", "./?/../../?.lua", "src/../../x/?.lua", "//?.lua"] {
            let judged = ProjectPath.templatesAreInside("./src/?.lua;" + escaping, project: project)
            #expect(!judged.inside && judged.template == escaping, "\(escaping)")
        }
    }
}

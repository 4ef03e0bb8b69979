import Foundation
import WayfinderLua

/// Where a path a project's configuration names leads, judged as the kernel would walk it: a
/// configuration file may name only paths inside its project, so it never widens what a spec may
/// read. Each component that exists is resolved (a symbolic link followed, `..` taken from where
/// the walk really is); below the first one that does not, `..` is taken lexically. Empty
/// components (`//`, a trailing `/`) and `.` change nothing.
enum ProjectPath {
    /// Where `path` (absolute, or relative to `project`) leads: a real path, or beyond the last
    /// existing component a lexical one. nil when `project` does not exist.
    static func destination(of path: String, project: String) -> String? {
        guard let projectReal = FileAccess.realPath(project) else { return nil }
        var current = path.hasPrefix("/") ? "/" : projectReal
        for component in path.split(separator: "/", omittingEmptySubsequences: true) where component != "." {
            let next = (current == "/" ? "" : current) + "/" + component
            if let real = FileAccess.realPath(next) {
                current = real
            } else if component == ".." {
                current = (current as NSString).deletingLastPathComponent
                if current.isEmpty { current = "/" }
            } else {
                current = next
            }
        }
        return current
    }

    /// Whether `path` leads inside `project` (the project itself included).
    static func isInside(_ path: String, project: String) -> Bool {
        guard let projectReal = FileAccess.realPath(project), let destination = destination(of: path, project: project) else { return false }
        return Workspace.path(destination, isInside: projectReal)
    }

    /// Whether every directory a `package.path` template list searches lies inside `project`:
    /// each template with its `?` as one plain name, so a template's own `..` or absolute start
    /// counts, while the names `require` puts there (no `..`, no `//`) only go deeper.
    static func templatesAreInside(_ templates: String, project: String) -> (inside: Bool, template: String) {
        for template in templates.split(separator: ";", omittingEmptySubsequences: true) {
            let sample = template.replacingOccurrences(of: "?", with: "\u{1}module")
            if !isInside(sample, project: project) { return (false, String(template)) }
        }
        return (true, "")
    }
}

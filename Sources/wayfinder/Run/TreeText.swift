import Wayfinder

/// The navigation tree as lines of text, from its snapshot (`nav:tree()`'s shape): the root's
/// tabs or stack, each modal, the popover, and which URL is visible. Entries not made yet (a
/// background tab) are marked "(not loaded)". A tab with a title in `wf.app` names it after its
/// number, as its tab bar does.
enum TreeText {
    static func lines(_ tree: Value, tabTitles: [String: String] = [:]) -> [String] {
        var lines = [String]()
        if let root = tree["root"] {
            if root["kind"]?.stringValue == "tabs" {
                let selected = root["selected"]?.intValue ?? 1
                let tabs = root["tabs"]?.arrayValue ?? []
                lines.append("tabs (\(tabs.count), tab \(selected) selected)")
                for (i, tab) in tabs.enumerated() {
                    let number = TabNumber.number(of: i)
                    let marker = number == selected ? "*" : " "
                    let first = tab["entries"]?.arrayValue?.first?["url"]?.stringValue
                    let title = first.flatMap { tabTitles[$0] }.map { " (" + VisibleText.escaped($0) + ")" } ?? ""
                    lines.append("  \(marker)tab \(number)\(title): " + stack(tab))
                }
            } else {
                lines.append("stack: " + stack(root))
            }
        }
        for (i, modal) in (tree["modals"]?.arrayValue ?? []).enumerated() {
            lines.append("modal \(i + 1): " + stack(modal))
        }
        if let popover = tree["popover"], !popover.isNull {
            lines.append("popover: " + entry(popover))
        }
        lines.append("visible: " + (tree["visible"]?.stringValue.map(VisibleText.escaped) ?? "(nothing)"))
        return lines
    }

    private static func stack(_ stack: Value) -> String {
        let entries = stack["entries"]?.arrayValue ?? []
        return entries.isEmpty ? "(empty)" : entries.map(entry).joined(separator: " > ")
    }

    private static func entry(_ entry: Value) -> String {
        let url = entry["url"]?.stringValue.map(VisibleText.escaped) ?? "?"
        return entry["loaded"]?.boolValue == false ? url + " (not loaded)" : url
    }
}

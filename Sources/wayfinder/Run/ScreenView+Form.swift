import WayfinderLua

/// The fields and buttons of the screen `wayfinder run` shows, numbered for `f N TEXT` and
/// `p N`; a secret's value masked.
extension ScreenView {
    func formLines(_ screen: RenderedScreen) -> [String] {
        var lines = [String]()
        if !screen.fields.isEmpty {
            lines.append("")
            for (i, field) in screen.fields.enumerated() {
                let choices = field.kind == .choice ? "  " + dim("(" + field.choices.map(VisibleText.escaped).joined(separator: " | ") + ")") : ""
                lines.append("  f\(i + 1)  \(VisibleText.escaped(field.label)): [\(VisibleText.escaped(field.shownValue))]" + choices)
            }
        }
        if !screen.buttons.isEmpty {
            lines.append("")
            lines.append("  " + screen.buttons.enumerated().map { i, button in "p\(i + 1) <\(VisibleText.escaped(button.title))>" }.joined(separator: "  "))
        }
        return lines
    }
}

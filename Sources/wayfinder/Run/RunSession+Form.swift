import Wayfinder
import WayfinderLua

/// `f N TEXT` and `p N` of `wayfinder run`: typing into the visible screen's field N and pressing
/// its button N, counted as the screen shows them. A secret typed is never repeated back.
extension RunSession {
    func fill(_ argument: String) {
        let (number, text) = splitNumber(argument)
        guard let number, let controller = visibleController() else {
            note("! f needs a field number and the text, as in 'f 1 Ada'")
            return
        }
        do {
            let fields = try host.fields(of: controller)
            guard fields.indices.contains(number - 1) else {
                note("! there is no field \(number) on this screen" + (fields.isEmpty ? "" : " (1-\(fields.count))"))
                return
            }
            let field = fields[number - 1]
            let value: Value
            switch (field.kind, text.lowercased()) {
            case (.toggle, "on"), (.toggle, "true"), (.toggle, "yes"): value = true
            case (.toggle, "off"), (.toggle, "false"), (.toggle, "no"): value = false
            case (.toggle, _):
                note("! field \(number) is a toggle: f \(number) on, or f \(number) off")
                return
            default: value = .string(text)
            }
            try host.setField(field.name, to: value, on: controller)
            // The tree did not change, but the screen's saved state did.
            savedChangeCount = nil
        } catch {
            note("! fill: \(error.message)")
        }
    }

    func press(_ argument: String) {
        let (number, rest) = splitNumber(argument)
        guard let number, rest.isEmpty, let controller = visibleController() else {
            note("! p needs a button number, as in 'p 1'")
            return
        }
        do {
            let buttons = try host.buttons(of: controller)
            guard buttons.indices.contains(number - 1) else {
                note("! there is no button \(number) on this screen" + (buttons.isEmpty ? "" : " (1-\(buttons.count))"))
                return
            }
            try host.press(buttons[number - 1].title, on: controller)
            savedChangeCount = nil
        } catch {
            note("! press: \(error.message)")
        }
    }

    /// The command `line` as the terminal shows it: the text typed into a secret field masked,
    /// a character for each, so the line keeps its length (the editor's cursor stays right).
    func echoed(_ line: String) -> String {
        let characters = Array(line)
        var i = 0
        func skip(_ spaces: Bool) { while i < characters.count, (characters[i] == " ") == spaces { i += 1 } }
        skip(true)
        let commandStart = i
        skip(false)
        let command = String(characters[commandStart..<i]).lowercased()
        guard command == "f" || command == "fill" else { return line }
        skip(true)
        let numberStart = i
        skip(false)
        guard let number = Int(String(characters[numberStart..<i])), let controller = visibleController(),
              let fields = try? host.fields(of: controller), fields.indices.contains(number - 1), fields[number - 1].isSecret else { return line }
        skip(true)
        return String(characters[..<i]) + String(repeating: "•", count: characters.count - i)
    }

    private func visibleController() -> LuaController? {
        host.tree.visible.flatMap(host.controller(for:))
    }

    /// "3 some text" as 3 and "some text"; nil when it does not start with a number from 1.
    private func splitNumber(_ argument: String) -> (Int?, String) {
        let head = argument.prefix { $0 != " " }
        let rest = argument.dropFirst(head.count).drop { $0 == " " }
        guard let number = Int(head), number >= 1 else { return (nil, String(rest)) }
        return (number, String(rest))
    }
}

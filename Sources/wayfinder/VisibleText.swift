import Wayfinder

/// Text a script chose, made safe to show on a terminal or in a line-based format: every C0 and
/// C1 control character and DEL is written out as a Lua-style escape (`\n`, `\t`, `\r`, `\27`),
/// so a name or a line can neither start a new line nor send an escape sequence to the terminal.
/// Printable text, including non-ASCII letters, stays as it is.
enum VisibleText {
    static func escaped(_ text: String) -> String {
        escaped(text, keepingLayout: false)
    }

    /// The same, keeping newlines and tabs: for diagnostics of several lines (a message with its
    /// traceback, whose frames are indented by tabs), which still cannot send an escape sequence.
    static func escapedKeepingLayout(_ text: String) -> String {
        escaped(text, keepingLayout: true)
    }

    private static func escaped(_ text: String, keepingLayout: Bool) -> String {
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A where keepingLayout, 0x09 where keepingLayout: result.unicodeScalars.append(scalar)
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case _ where ControlCharacter.contains(scalar): result += "\\\(scalar.value)"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

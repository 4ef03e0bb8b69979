/// The command line of `wayfinder run` on a terminal: the text typed so far and the cursor in
/// it, moved and edited by keys, with the commands given before recalled by Up and Down (the
/// line being typed is kept while browsing them).
struct LineEditor {
    enum Outcome: Equatable {
        case editing
        case submitted(String)
        case ended
    }

    private(set) var text: [Character] = []
    /// Where the next character goes, from 0 to `text.count`.
    private(set) var cursor = 0
    private(set) var history: [String] = []
    /// The history entry shown (nil: the line being typed), and that line while browsing.
    private var recalled: Int?
    private var draft: [Character] = []

    var line: String { String(text) }

    mutating func handle(_ key: KeyDecoder.Key) -> Outcome {
        switch key {
        case .text(let typed):
            text.insert(contentsOf: typed, at: cursor)
            cursor += typed.count
        case .enter:
            let submitted = line
            if !submitted.trimmingCharacters(in: .whitespaces).isEmpty, history.last != submitted { history.append(submitted) }
            text = []
            cursor = 0
            recalled = nil
            draft = []
            return .submitted(submitted)
        case .backspace:
            if cursor > 0 {
                text.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete:
            if cursor < text.count { text.remove(at: cursor) }
        case .endOfInput:
            if text.isEmpty { return .ended }
            if cursor < text.count { text.remove(at: cursor) }
        case .interrupt:
            return .ended
        case .left: cursor = max(0, cursor - 1)
        case .right: cursor = min(text.count, cursor + 1)
        case .home: cursor = 0
        case .end: cursor = text.count
        case .deleteToStart:
            text.removeSubrange(0..<cursor)
            cursor = 0
        case .deleteToEnd:
            text.removeSubrange(cursor...)
        case .deleteWord:
            var start = cursor
            while start > 0, text[start - 1] == " " { start -= 1 }
            while start > 0, text[start - 1] != " " { start -= 1 }
            text.removeSubrange(start..<cursor)
            cursor = start
        case .up:
            guard !history.isEmpty else { break }
            let index = recalled.map { max(0, $0 - 1) } ?? history.count - 1
            if recalled == nil { draft = text }
            show(Array(history[index]), recalled: index)
        case .down:
            guard let index = recalled else { break }
            if index + 1 < history.count {
                show(Array(history[index + 1]), recalled: index + 1)
            } else {
                show(draft, recalled: nil)
            }
        }
        return .editing
    }

    private mutating func show(_ line: [Character], recalled index: Int?) {
        text = line
        cursor = line.count
        recalled = index
    }
}

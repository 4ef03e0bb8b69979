import Testing
@testable import wayfinder

/// The terminal's keys as bytes, and what the line editor makes of them.
@Suite("Key decoding and line editing")
struct LineEditorTests {
    func keys(_ chunks: String...) -> [KeyDecoder.Key] {
        var decoder = KeyDecoder()
        return chunks.flatMap { decoder.keys(Array($0.utf8)) }
    }

    @Test func escapeSequencesBecomeKeysAndUnknownOnesAreDropped() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OH\u{1B}OF") == [.up, .home, .end])
        #expect(keys("\u{1B}[1~\u{1B}[4~\u{1B}[3~\u{1B}[H\u{1B}[F") == [.home, .end, .delete, .home, .end])
        #expect(keys("a\u{1B}[15~b\u{1B}[24;2~c\u{1B}xd\u{1B}[Ze") == [.text("a"), .text("b"), .text("c"), .text("d"), .text("e")],
                "F5, Shift-F12, Alt-x and Shift-Tab are dropped")
        #expect(keys("\u{1B}[1;5C") == [.right], "an arrow with a modifier is still the arrow")
        #expect(keys("\r\n\u{7F}\u{08}\u{15}\u{0B}\u{17}\u{04}\u{03}\u{01}\u{05}\u{07}") ==
                [.enter, .enter, .backspace, .backspace, .deleteToStart, .deleteToEnd, .deleteWord, .endOfInput, .interrupt, .home, .end])
    }

    @Test func aSequenceCutBetweenReadsWaitsForTheRest() {
        #expect(keys("\u{1B}[", "A") == [.up])
        #expect(keys("\u{1B}[1;", "5C") == [.right])
        #expect(keys("\u{1B}O", "A") == [.up])
        var decoder = KeyDecoder()
        let bytes = Array("é→".utf8)
        #expect(decoder.keys(Array(bytes[0..<1])) == [])
        #expect(decoder.keys(Array(bytes[1..<3])) == [.text("é")])
        #expect(decoder.keys(Array(bytes[3...])) == [.text("→")])
        #expect(decoder.keys([0xFF, 0x41]) == [.text("A")], "a byte that starts no character is dropped")
    }

    @Test func aLoneEscapeAtTheEndOfAReadIsDroppedNotKeptForTheNextKey() {
        #expect(keys("ab\u{1B}", "c", "d") == [.text("a"), .text("b"), .text("c"), .text("d")])
        #expect(keys("\u{1B}", "\u{1B}[A") == [.up], "Escape, then an arrow")
        #expect(keys("\u{1B}", "\r") == [.enter])
        #expect(keys("\u{1B}xc") == [.text("c")], "ESC and a byte in one read is still Alt and that key")
        #expect(keys("x\u{1B}\u{1B}", "y") == [.text("x"), .text("y")])
    }

    func edit(_ input: String, history: [String] = []) -> (LineEditor, [LineEditor.Outcome]) {
        var editor = LineEditor()
        for line in history {
            for key in keys(line + "\r") { _ = editor.handle(key) }
        }
        var outcomes: [LineEditor.Outcome] = []
        for key in keys(input) {
            let outcome = editor.handle(key)
            if outcome != .editing { outcomes.append(outcome) }
        }
        return (editor, outcomes)
    }

    @Test func cursorMovesAndEdits() {
        #expect(edit("ac\u{1B}[Db\r").1 == [.submitted("abc")])
        #expect(edit("abc\u{01}x\u{05}y\r").1 == [.submitted("xabcy")])
        #expect(edit("abc\u{1B}[D\u{1B}[D\u{7F}\r").1 == [.submitted("bc")])
        #expect(edit("abc\u{1B}[D\u{1B}[D\u{1B}[3~\r").1 == [.submitted("ac")])
        #expect(edit("o tt://x\u{17}\r").1 == [.submitted("o ")])
        #expect(edit("abcd\u{1B}[D\u{1B}[D\u{0B}\r").1 == [.submitted("ab")])
        #expect(edit("abcd\u{1B}[D\u{15}\r").1 == [.submitted("d")])
        #expect(edit("\u{1B}[D\u{1B}[D\u{7F}x\r").1 == [.submitted("x")], "nothing to move over or delete")
    }

    @Test func historyIsRecalledAndTheDraftKept() {
        let history = ["1", "t 2", "o tt://menu/1"]
        #expect(edit("\u{1B}[A\r", history: history).1 == [.submitted("o tt://menu/1")])
        #expect(edit("\u{1B}[A\u{1B}[A\u{1B}[A\u{1B}[A\r", history: history).1 == [.submitted("1")], "Up stops at the oldest")
        #expect(edit("dra\u{1B}[A\u{1B}[A\u{1B}[B\u{1B}[B\r", history: history).1 == [.submitted("dra")], "Down past the newest gives the draft back")
        let (editor, _) = edit("b\r\r  \rb\r", history: history)
        #expect(editor.history == ["1", "t 2", "o tt://menu/1", "b"], "blank lines and repeats are not kept")
    }

    @Test func endOfInputAndInterrupt() {
        #expect(edit("\u{04}").1 == [.ended])
        #expect(edit("ab\u{01}\u{04}\r").1 == [.submitted("b")], "Ctrl-D on a line deletes")
        #expect(edit("ab\u{03}").1 == [.ended])
    }
}

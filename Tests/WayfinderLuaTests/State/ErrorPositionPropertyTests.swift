import Testing
import TestSupport
@testable import WayfinderLua

/// Over generated call stacks, the position an error names is the one a model of Lua's rules
/// gives, worked out from the script's layout alone: `error(message, level)` names the frame
/// `level` out (none at 0 or past the chunk), `assert`, a runtime error and a library function's
/// bad argument name the raising line, and an error caught and raised again unchanged keeps its
/// first position. The message never decides it: some messages spell out a live frame's position.
@Suite("Error positions over generated stacks")
struct ErrorPositionPropertyTests {
    /// A script: `depth` nested functions, each calling the next from a line of its own after some
    /// filler lines, the innermost raising; the chunk calls the outermost.
    struct Layout {
        var lines = [String]()
        var chunkCall = 0

        mutating func add(_ line: String) -> Int {
            lines.append(line)
            return lines.count
        }
    }

    enum Raise: CaseIterable {
        case error, assertWithMessage, assertAlone, runtime, library, spelled, rethrown
    }

    @Test func positionsFollowLuasRules() throws {
        let state = try makeState()
        var generator = SeededGenerator(seed: 30)
        for round in 0..<400 {
            let depth = Int.random(in: 1...5, using: &generator)
            let raise = Raise.allCases.randomElement(using: &generator)!
            var layout = Layout()
            // Defined innermost first, so each sees the next one as an upvalue.
            var raiseLine = 0
            var firstLine = 0
            var level = 0
            var calls = [Int](repeating: 0, count: depth)
            for index in stride(from: depth - 1, through: 0, by: -1) {
                _ = layout.add("local function f\(index)()")
                for _ in 0..<Int.random(in: 0...2, using: &generator) { _ = layout.add("  local _ = \(round)") }
                if index == depth - 1 {
                    switch raise {
                    case .error:
                        level = Int.random(in: 0...(depth + 2), using: &generator)
                        raiseLine = layout.add("  error('boom', \(level))")
                    case .assertWithMessage: raiseLine = layout.add("  assert(false, 'boom')")
                    case .assertAlone: raiseLine = layout.add("  assert(nil)")
                    case .runtime: raiseLine = layout.add("  local t = nil; local _ = t.field")
                    case .library: raiseLine = layout.add("  local _ = string.rep({})")
                    case .spelled:
                        // The text names this very line, yet nothing put a position in front of it.
                        raiseLine = layout.add("  error('test.lua:\(layout.lines.count + 1): boom', 0)")
                    case .rethrown:
                        _ = layout.add("  local ok, e = pcall(function()")
                        firstLine = layout.add("    error('boom')")
                        _ = layout.add("  end)")
                        raiseLine = layout.add("  if not ok then error(e, 0) end")
                    }
                    calls[index] = raiseLine
                } else {
                    calls[index] = layout.add("  f\(index + 1)()")
                }
                _ = layout.add("end")
            }
            layout.chunkCall = layout.add("f0()")
            // The frames from the innermost out: the raising function's line, each caller's call
            // line, then the chunk's.
            let frames = calls.reversed() + [layout.chunkCall]
            let expected: Int? = switch raise {
            case .error: level == 0 || level > frames.count ? nil : frames[level - 1]
            case .assertWithMessage, .assertAlone, .runtime, .library: raiseLine
            case .spelled: nil
            case .rethrown: firstLine
            }
            let source = layout.lines.joined(separator: "\n")
            let error = try #require(failure(state, source), "\(source)")
            #expect(error.line == expected, "\(raise) level \(level):\n\(source)\n\(error.message)")
            #expect(error.file == (expected == nil ? nil : "test.lua"), "\(source)")
            if let expected, raise != .spelled {
                #expect(error.message.hasPrefix("test.lua:\(expected): "), "\(source)\n\(error.message)")
            }
        }
        #expect(state.stackTop == 0)
    }
}

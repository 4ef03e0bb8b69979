import Foundation
import Wayfinder
import WayfinderLua

/// The route table as text, one route per line in precedence order, so that a saved copy shows
/// in review what changed and `wayfinder routes --check` can say how the table drifted from it.
package struct RouteSnapshot: Equatable {
    package static let header = "# wayfinder routes snapshot: one route per line, in precedence order"
    /// Larger files are refused before they are read: no route table comes near it.
    static let maximumBytes = 16 << 20

    package struct Line: Equatable {
        package var pattern: String
        package var text: String
        /// A moved route's line (`OLD  moved=NEW`), listed after the routes: moves take no part
        /// in precedence.
        package var isMove: Bool { text.dropFirst(pattern.count).hasPrefix("  " + Self.movedField) }
        static let movedField = "moved="
    }

    package var lines: [Line]

    /// The routes in precedence order, then the moves (`wf.map:moved`), so deleting a move shows
    /// as a difference as deleting a route does.
    package init(_ routes: [RouteReport], moves: [RouteMoves.Move] = []) {
        lines = routes.map { Line(pattern: $0.pattern.text, text: RouteDescription($0).line) }
        lines += moves.map { move in
            Line(pattern: move.old.text, text: move.old.text + "  " + Line.movedField + RouteDescription.quoted(move.new.text))
        }
    }

    /// Reads a saved snapshot; the reason, naming the file, when it is not one.
    package init(file path: String) throws(SnapshotError) {
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw SnapshotError("cannot read the snapshot '\(path)': no such file")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw SnapshotError("cannot read the snapshot '\(path)': not a regular file")
        }
        if let size = attributes[.size] as? Int, size > Self.maximumBytes {
            throw SnapshotError("cannot read the snapshot '\(path)': over 16 MiB")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SnapshotError("cannot read the snapshot '\(path)'")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw SnapshotError("the snapshot '\(path)' is not UTF-8 text")
        }
        var rows = text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init)
        guard rows.first == Self.header else {
            throw SnapshotError("'\(path)' is not a routes snapshot (its first line is not '\(Self.header)'); write one with --write")
        }
        rows.removeFirst()
        lines = rows.map { row in
            let pattern = row.range(of: "  ").map { String(row[..<$0.lowerBound]) } ?? row
            return Line(pattern: pattern, text: row)
        }
    }

    package var text: String {
        ([Self.header] + lines.map(\.text)).joined(separator: "\n") + "\n"
    }

    /// Writes the snapshot by rename, so a reader never sees half of one.
    package func write(to path: String) throws(SnapshotError) {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw SnapshotError("cannot write the snapshot '\(path)': it is a directory")
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw SnapshotError("cannot write the snapshot '\(path)': \((error as NSError).localizedFailureReason ?? "the file cannot be written")")
        }
    }

    /// How `current` differs from this saved snapshot, as lines for a person: routes removed and
    /// added (with their place in the order, 1 first), changed, then routes whose order relative
    /// to the routes of both changed. Empty when they are the same.
    package func differences(to current: RouteSnapshot) -> [String] {
        var out = [String]()
        let saved = Dictionary(lines.map { ($0.pattern, $0) }, uniquingKeysWith: { first, _ in first })
        let now = Dictionary(current.lines.map { ($0.pattern, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, line) in lines.enumerated() where now[line.pattern] == nil { out.append("- #\(index + 1) \(line.text)") }
        for (index, line) in current.lines.enumerated() where saved[line.pattern] == nil { out.append("+ #\(index + 1) \(line.text)") }
        for line in current.lines {
            guard let old = saved[line.pattern], old.text != line.text else { continue }
            out.append("~ \(line.pattern)")
            out.append("    was: \(old.text)")
            out.append("    now: \(line.text)")
        }
        let oldOrder = lines.filter { !$0.isMove }.map(\.pattern).filter { now[$0] != nil }
        let newOrder = current.lines.filter { !$0.isMove }.map(\.pattern).filter { saved[$0] != nil }
        let kept = Set(Self.longestCommonSubsequence(oldOrder, newOrder))
        let moved = newOrder.filter { !kept.contains($0) }
        if !moved.isEmpty {
            out.append("precedence changed:")
            let oldPosition = Dictionary(lines.enumerated().map { ($1.pattern, $0 + 1) }, uniquingKeysWith: { first, _ in first })
            for (index, line) in current.lines.enumerated() where moved.contains(line.pattern) {
                out.append("  \(line.pattern): was #\(oldPosition[line.pattern] ?? 0), now #\(index + 1)")
            }
        }
        return out
    }

    /// The longest run of `b` whose order `a` shares (patterns are unique, so this is the
    /// longest increasing subsequence of their positions in `a`, in n log n).
    private static func longestCommonSubsequence(_ a: [String], _ b: [String]) -> [String] {
        let position = Dictionary(a.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let values = b.map { position[$0] ?? -1 }
        var tails = [Int]()          // index into values of the smallest tail of each length
        var previous = Array(repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result = [String]()
        var index = tails.last ?? -1
        while index >= 0 {
            result.append(b[index])
            index = previous[index]
        }
        return result.reversed()
    }
}

/// Why a snapshot could not be read or written.
package struct SnapshotError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

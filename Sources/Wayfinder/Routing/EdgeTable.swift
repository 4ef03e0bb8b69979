/// The trie's literal edges: (parent node, literal id) to child node, all in one open-addressing
/// table of integers, so following an edge is one multiply and, at worst, a probe or two in one
/// cache line, wherever the parent sits.
///
/// Unseeded for the reason `LiteralPool` gives; a class for the same reason as it.
final class EdgeTable {
    private struct Entry {
        static let empty = Entry(parent: -1, literal: -1, child: -1)
        var parent: Int32
        var literal: Int32
        /// -1 for an empty entry.
        var child: Int32
    }

    /// A power of two, at most three quarters full.
    @exclusivity(unchecked) private var entries = [Entry](repeating: .empty, count: 16)
    private var shift = 64 - 4
    private var count = 0

    @inline(__always)
    func child(of parent: Int32, literal: Int32) -> Int32? {
        let mask = entries.count - 1
        var index = home(parent, literal)
        while true {
            let entry = entries[index]
            if entry.child < 0 { return nil }
            if entry.parent == parent && entry.literal == literal { return entry.child }
            index = (index + 1) & mask
        }
    }

    /// Adds an edge that is not in the table yet.
    func insert(parent: Int32, literal: Int32, child: Int32) {
        if (count + 1) * 4 > entries.count * 3 { grow() }
        place(Entry(parent: parent, literal: literal, child: child))
        count += 1
    }

    func remove(parent: Int32, literal: Int32) {
        let mask = entries.count - 1
        var hole = home(parent, literal)
        while entries[hole].parent != parent || entries[hole].literal != literal {
            guard entries[hole].child >= 0 else { return }
            hole = (hole + 1) & mask
        }
        // Backward-shift deletion, as in `LiteralPool.release`.
        var next = (hole + 1) & mask
        while entries[next].child >= 0 {
            let ideal = home(entries[next].parent, entries[next].literal)
            if (next - ideal) & mask >= (next - hole) & mask {
                entries[hole] = entries[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        entries[hole] = .empty
        count -= 1
    }

    /// Fibonacci hashing of the pair: the top bits of a multiply by 2^64 / φ.
    @inline(__always)
    private func home(_ parent: Int32, _ literal: Int32) -> Int {
        let key = UInt64(UInt32(bitPattern: parent)) << 32 | UInt64(UInt32(bitPattern: literal))
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    private func place(_ entry: Entry) {
        let mask = entries.count - 1
        var index = home(entry.parent, entry.literal)
        while entries[index].child >= 0 { index = (index + 1) & mask }
        entries[index] = entry
    }

    private func grow() {
        let old = entries
        entries = [Entry](repeating: .empty, count: old.count * 2)
        shift -= 1
        for entry in old where entry.child >= 0 { place(entry) }
    }
}

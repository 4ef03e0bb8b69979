/// The literal texts of a route table (its hosts, path literals and scheme keys), each kept once
/// under a small number, so that the trie's literal edges are keyed by numbers and a URL's
/// segment is looked up once per level rather than once per node.
///
/// Open addressing over an unseeded hash of the UTF-8 bytes (FNV-1a). Unseeded is safe here: the
/// keys come from the app's own patterns and a URL can only probe, so a crafted URL costs at most
/// the longest run of slots those patterns fill. Swift's `Dictionary` would hash with SipHash,
/// several times the cost of the whole probe for text this short.
///
/// A class, so the search calls into it without copying (and retaining) its arrays; they skip
/// run-time exclusivity checks for the reason `RouteIndex` gives.
final class LiteralPool {
    private struct Slot {
        static let empty = Slot(id: -1, hash: 0)
        /// -1 for an empty slot.
        var id: Int32
        var hash: UInt32
    }

    /// Texts by id; "" for an id that is free.
    @exclusivity(unchecked) private(set) var texts: [String] = []
    /// How many trie edges use each id; an id whose count falls to 0 is freed.
    private var uses: [Int32] = []
    private var freeIDs: [Int32] = []
    /// A power of two, at most half full, so a probe rarely looks at more than two slots.
    @exclusivity(unchecked) private var slots = [Slot](repeating: .empty, count: 16)
    private var count = 0

    /// The id of `text`, or nil when no pattern has it.
    func id(of text: String) -> Int32? {
        text.withBytes { id(of: $0) }
    }

    func id(of bytes: UnsafeBufferPointer<UInt8>) -> Int32? {
        let hash = Self.hash(bytes)
        let mask = slots.count - 1
        var index = Int(hash) & mask
        while true {
            let slot = slots[index]
            if slot.id < 0 { return nil }
            if slot.hash == hash && Self.equal(texts[Int(slot.id)], bytes) { return slot.id }
            index = (index + 1) & mask
        }
    }

    /// The id of `text`, added if new; one more use either way.
    func retain(_ text: String) -> Int32 {
        if let id = id(of: text) {
            uses[Int(id)] += 1
            return id
        }
        if (count + 1) * 2 > slots.count { grow() }
        let id: Int32
        if let free = freeIDs.popLast() {
            id = free
            texts[Int(id)] = text
            uses[Int(id)] = 1
        } else {
            id = Int32(texts.count)
            texts.append(text)
            uses.append(1)
        }
        place(Slot(id: id, hash: text.withBytes(Self.hash)))
        count += 1
        return id
    }

    /// One use fewer; the text goes when no edge uses it.
    func release(_ id: Int32) {
        uses[Int(id)] -= 1
        guard uses[Int(id)] == 0 else { return }
        let mask = slots.count - 1
        var hole = Int(texts[Int(id)].withBytes(Self.hash)) & mask
        while slots[hole].id != id { hole = (hole + 1) & mask }
        // Backward-shift deletion: move later entries of the run back over the hole, so no
        // tombstones are left to lengthen probes.
        var next = (hole + 1) & mask
        while slots[next].id >= 0 {
            let home = Int(slots[next].hash) & mask
            if (next - home) & mask >= (next - hole) & mask {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = .empty
        texts[Int(id)] = ""
        freeIDs.append(id)
        count -= 1
    }

    private func place(_ slot: Slot) {
        let mask = slots.count - 1
        var index = Int(slot.hash) & mask
        while slots[index].id >= 0 { index = (index + 1) & mask }
        slots[index] = slot
    }

    private func grow() {
        let old = slots
        slots = [Slot](repeating: .empty, count: old.count * 2)
        for slot in old where slot.id >= 0 { place(slot) }
    }

    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return hash
    }

    private static func equal(_ text: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        text.withBytes { stored in
            guard stored.count == bytes.count else { return false }
            for index in 0..<stored.count where stored[index] != bytes[index] { return false }
            return true
        }
    }
}

/// Tabs as people, scripts and state files count them, from 1, against the tree's indexes, from 0:
/// the one place the two meet.
public enum TabNumber {
    /// The index of tab `number`; nil for a number that names no tab (below 1).
    public static func index(of number: Int64) -> Int? {
        guard number >= 1, number <= Int64(Int.max) else { return nil }
        return Int(number - 1)
    }

    /// The number of the tab at `index`.
    public static func number(of index: Int) -> Int64 {
        Int64(index) + 1
    }
}

/// The version of Wayfinder a host runs, which a bundle's manifest names as the lowest it needs:
/// three numbers, compared in order.
public struct HostVersion: Comparable, CustomStringConvertible, Sendable {
    /// This build's version (the command line's `--version`).
    public static let current = HostVersion(major: 0, minor: 1, patch: 0)

    /// The first number: a host with a higher one runs every bundle made for a lower one.
    public let major: Int
    /// The second number, compared when the first ones are equal.
    public let minor: Int
    /// The third number, compared when the first two are equal.
    public let patch: Int

    /// The version `major.minor.patch`.
    public init(major: Int, minor: Int, patch: Int) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// `1.2.3`; nil for anything else (each part at most six digits).
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var numbers = [Int]()
        for part in parts {
            guard !part.isEmpty, part.count <= 6, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        self.init(major: numbers[0], minor: numbers[1], patch: numbers[2])
    }

    /// `major.minor.patch`, as a manifest and `--version` write it.
    public var description: String { "\(major).\(minor).\(patch)" }

    /// Whether `lhs` is older: the numbers compared in order.
    public static func < (lhs: HostVersion, rhs: HostVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }
}

/// How a message names the values a setting may take, spelled from the enum that defines them,
/// so the list and the messages cannot drift apart.
extension CaseIterable where Self: RawRepresentable, Self.RawValue == String {
    /// The cases in order, comma-separated: `create, share, modal, popover, none`.
    package static var listedChoices: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The cases quoted, the last after "or": `"none", "top" or "all"`.
    package static var quotedChoices: String {
        let quoted = allCases.map { "\"\($0.rawValue)\"" }
        guard quoted.count > 1 else { return quoted.joined() }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted[quoted.count - 1]
    }
}

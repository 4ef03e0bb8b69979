/// How a message names the values a setting may take, spelled from the enum that defines them,
/// so the list and the messages cannot drift apart.
extension CaseIterable where Self: RawRepresentable, Self.RawValue == String {
    /// The cases in order, comma-separated: `create, share, modal, popover, none`.
    package static var listedChoices: String {
        allCases.map(\.rawValue).joined(separator: ", ")
    }

    /// The case named `given`; else the one message for a value that is not one of them, as
    /// lauxlib's `luaL_checkoption` words its own: `<subject> must be one of a, b, c; got 'x'`
    /// (without a subject, `must be one of ...`, for a caller that names the place itself).
    /// Every check of an enumerated option goes through here.
    package static func option<Failure: Error>(_ given: String, for subject: String?,
                                              failing: (String) -> Failure) throws(Failure) -> Self {
        if let option = Self(rawValue: given) { return option }
        throw failing((subject.map { $0 + " " } ?? "") + "must be one of \(listedChoices); got '\(given)'")
    }
}

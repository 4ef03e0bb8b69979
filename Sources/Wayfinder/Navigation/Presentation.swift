/// What an open does to the tree around the screen it places (docs/lua-api.md, "Presentation"),
/// given per route (`presentation = ...`) or per open (an action's `presentation`, which wins).
/// The mode says where a new screen goes (a stack, a modal, the popover) and whether one that is
/// shown already is brought forward (`share`); the presentation says what happens before it goes
/// there. This is the one list of verbs: the Lua side and the command line take theirs from it.
public enum Presentation: String, Sendable, CaseIterable {
    /// Placed as the mode says, over what is there (the default).
    case push
    /// The visible screen is taken out first, so back goes where it went before.
    case replace
    /// The visible stack is emptied first: it becomes just the new screen.
    case replaceRoot = "replace_root"
    /// Every modal and the popover close and the root stack (the selected tab) pops to its first
    /// screen; then the URL opens, unless it is the screen now showing.
    case clearAll = "clear_all"
    /// The visible screen is made again from its own URL, keeping the state its controller saves;
    /// the URL opened only names the instruction.
    case refresh
    /// Back one (the popover, else the visible stack's top, else a modal of one screen); then the
    /// URL opens, unless it is the screen now showing.
    case pop
    /// Nothing happens: no screen is made and the tree stays as it is.
    case none
}

/// What the host keeps of a script's declarations outside the navigation tree and the route
/// table, charged to the state's memory limit: `wf.app`'s settings, the tab list `nav:tabs` set
/// last (its tabs' entries hold their URLs until they are made), and each moved route
/// (`wf.map:moved`, by its old pattern). Each is replaced whole by the next declaration of the
/// same thing, and its charge with it: the new one is charged before the old one goes, as Lua
/// itself holds a table's old and new parts while it grows one.
struct KeptCharges {
    var config: ExternalCharge?
    var tabs: ExternalCharge?
    var moves: [String: ExternalCharge] = [:]
}

import WayfinderLua

/// The spec runner's Lua modules (`wayfinder.spec`, `wayfinder.spec_io`, `wayfinder.testing`, files
/// of the repository's `lua/wayfinder/`): compiled into the test kit (embedded-files.json) rather
/// than the library, so an app that embeds WayfinderLua carries none of them. A spec file's state
/// finds them beside the library's modules; an app a spec launches does not.
enum SpecModules {
    static let compiledIn = BundledLua.adding(EmbeddedSpecLua.files)
}

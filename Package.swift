// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Wayfinder",
    // The oldest systems whose standard library has what the package uses (Duration and clocks:
    // macOS 13, iOS 16). Linux is not named here: it needs no minimum. docs/embedding.md says
    // which of these are built and tested.
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [
        .library(name: "Wayfinder", targets: ["Wayfinder"]),
        .library(name: "WayfinderLua", targets: ["WayfinderLua"]),
        .library(name: "WayfinderUpdates", targets: ["WayfinderUpdates"]),
        .executable(name: "wayfinder", targets: ["wayfinder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        // `swift package generate-documentation` (scripts/docs-check): the DocC catalogs in Sources.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        .target(name: "CLuaShim", dependencies: ["CLua"]),
        .target(
            name: "Wayfinder",
            dependencies: [.product(name: "OrderedCollections", package: "swift-collections")]
        ),
        .target(
            name: "WayfinderLua",
            dependencies: ["Wayfinder", "CLuaShim", "CLua", .product(name: "OrderedCollections", package: "swift-collections")],
            exclude: ["embedded-files.json"],
            plugins: ["EmbedFiles"]
        ),
        // The test kit: the spec runner, busted's configuration, the app driver, crawl, coverage and
        // route snapshots, with the spec runner's Lua modules. The command line and the tests use
        // it; an app that embeds WayfinderLua does not link it.
        .target(
            name: "WayfinderTesting",
            dependencies: ["Wayfinder", "WayfinderLua", "CLuaShim", "CLua", .product(name: "OrderedCollections", package: "swift-collections")],
            exclude: ["embedded-files.json"],
            plugins: ["EmbedFiles"]
        ),
        .target(
            name: "WayfinderServe",
            dependencies: ["Wayfinder", "WayfinderLua", .product(name: "FlyingFox", package: "FlyingFox")],
            exclude: ["embedded-files.json", "Pages"],
            plugins: ["EmbedFiles"]
        ),
        // Signed bundles of an app's Lua files, installed after checks and rolled back when they
        // fail (docs/updates.md): its own target, so an app that takes no updates links neither
        // swift-crypto nor ZIPFoundation.
        .target(
            name: "WayfinderUpdates",
            dependencies: [
                "Wayfinder", "WayfinderLua",
                .product(name: "OrderedCollections", package: "swift-collections"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ZIPFoundation", package: "ZIPFoundation"),
            ]
        ),
        // Files compiled into a target as named byte arrays (Plugins/EmbedFiles says how to use it).
        .executableTarget(name: "EmbedFilesTool"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),
        .executableTarget(
            name: "wayfinder",
            dependencies: [
                "Wayfinder", "WayfinderLua", "WayfinderTesting", "WayfinderServe", "WayfinderUpdates",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The embedding example (docs/embedding.md), compiled with the package rather than as a
        // second build of it; scripts/public-api --client shows it uses the public API alone.
        // Examples/EmbeddingDemo/Package.swift builds the same files as an app would.
        .executableTarget(
            name: "EmbeddingDemo",
            dependencies: ["Wayfinder", "WayfinderLua"],
            path: "Examples/EmbeddingDemo/Sources/EmbeddingDemo"
        ),
        // What the test targets share (a seeded generator); the benchmark compiles the same file.
        .target(name: "TestSupport", path: "Tests/Support"),
        .testTarget(name: "WayfinderTests", dependencies: ["Wayfinder", "TestSupport"]),
        .testTarget(name: "WayfinderServeTests", dependencies: ["WayfinderServe", "WayfinderLua", "Wayfinder", "wayfinder"]),
        .testTarget(name: "WayfinderLuaTests", dependencies: [
            "WayfinderLua", "WayfinderTesting", "WayfinderUpdates", "Wayfinder", "CLuaShim", "CLua", "wayfinder", "TestSupport",
        ]),
    ],
    swiftLanguageModes: [.v6]
)

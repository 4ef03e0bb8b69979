// swift-tools-version:6.0
// An app that embeds Wayfinder (docs/embedding.md): the restaurant example's flows in Lua, a
// presenter of its own kept in step by navigation events, a native screen and a lent module.
// It depends on the project by path, as an app would on a release.
import PackageDescription

let package = Package(
    name: "EmbeddingDemo",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Wayfinder", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "EmbeddingDemo",
            dependencies: [
                .product(name: "Wayfinder", package: "Wayfinder"),
                .product(name: "WayfinderLua", package: "Wayfinder"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

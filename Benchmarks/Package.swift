// swift-tools-version:6.0
// The benchmark behind `scripts/bench`: Wayfinder against routing-kit and a linear scan,
// open/back from Lua, launch with restore, hot reload, memory, each timed and counted in
// instructions (callgrind). Built in release mode, separately from the project, which it uses by path.
import PackageDescription

let package = Package(
    name: "WayfinderBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Wayfinder", path: ".."),
        .package(url: "https://github.com/vapor/routing-kit", exact: "4.9.3"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.3"),
    ],
    targets: [
        // Marks the regions callgrind counts (valgrind's client requests, when its headers are installed).
        .target(name: "CallgrindRegion"),
        // The allocator's own count of bytes in use, for the memory bench.
        .target(name: "HeapUsage"),
        .executableTarget(
            name: "WayfinderBench",
            dependencies: [
                "CallgrindRegion",
                "HeapUsage",
                .product(name: "Wayfinder", package: "Wayfinder"),
                .product(name: "WayfinderLua", package: "Wayfinder"),
                .product(name: "RoutingKit", package: "routing-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

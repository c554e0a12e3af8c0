// swift-tools-version: 6.1
// Sheaf: a notes store that lives in plain files.
// Module graph (dependencies point inward; see ARCHITECTURE.md):
//   sheaf -> SheafCLI -> SheafKit -> SheafSync -> SheafGit -> CGit2
//                                 -> SheafIndex -> GRDB
//                                 -> SheafWatch (inotify: `sheaf watch`, read commands' freshness)
//                                 -> SheafCore -> CCmarkGFM (cmark-gfm)
//   sheaf-thumbnailer -> SheafMedia -> CVips (libvips)
//                                   -> SheafCore
// Two executables: only `sheaf-thumbnailer` links libvips; `sheaf` runs it when a command makes
// thumbnails (SheafCore/ThumbnailBatch.swift), so other commands never load the image library.
import PackageDescription

let package = Package(
    name: "Sheaf",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "sheaf", targets: ["sheaf"]),
        .executable(name: "sheaf-thumbnailer", targets: ["sheaf-thumbnailer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CGit2",
            pkgConfig: "libgit2",
            providers: [.apt(["libgit2-dev"])]
        ),
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .target(
            name: "SheafCore",
            dependencies: ["CCmarkGFM", .product(name: "Yams", package: "Yams"), .product(name: "TOMLKit", package: "TOMLKit")],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafGit",
            dependencies: ["CGit2"],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafIndex",
            dependencies: ["SheafCore", .product(name: "GRDB", package: "GRDB.swift")],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafSync",
            dependencies: ["SheafCore", "SheafGit"],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafMedia",
            dependencies: ["CVips", "SheafCore"],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafWatch",
            dependencies: ["SheafCore"],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafKit",
            dependencies: ["SheafCore", "SheafGit", "SheafIndex", "SheafSync", "SheafWatch"],
            exclude: ["README.md"]
        ),
        .target(
            name: "SheafCLI",
            dependencies: [
                "SheafKit", "SheafCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            exclude: ["README.md"]
        ),
        .executableTarget(
            name: "sheaf",
            dependencies: ["SheafCLI"]
        ),
        .executableTarget(
            name: "sheaf-thumbnailer",
            dependencies: ["SheafMedia", "SheafCore"]
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(
            name: "SheafCoreTests",
            dependencies: [
                "SheafCore", "TestSupport", .product(name: "Yams", package: "Yams"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SheafIndexTests",
            dependencies: ["SheafIndex", "SheafCore", "TestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "SheafSyncTests",
            dependencies: [
                "SheafSync", "SheafCore", "SheafGit", "TestSupport",
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
        .testTarget(
            name: "SheafWatchTests",
            dependencies: ["SheafWatch", "SheafCore"]
        ),
        .testTarget(
            name: "SheafGitTests",
            dependencies: ["SheafGit", "TestSupport"]
        ),
        .target(
            name: "MediaFixtures",
            dependencies: ["TestSupport"],
            path: "Tests/MediaFixtures"
        ),
        .testTarget(
            name: "SheafMediaTests",
            dependencies: ["SheafMedia", "SheafCore", "MediaFixtures", "TestSupport"]
        ),
        .testTarget(
            name: "SheafKitTests",
            dependencies: ["SheafKit", "SheafCore", "TestSupport"]
        ),
        .testTarget(
            name: "SheafCLITests",
            dependencies: ["SheafCore", "SheafWatch", "TestSupport", "sheaf", "sheaf-thumbnailer", "MediaFixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

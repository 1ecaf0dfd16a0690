// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "showhide",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "showhide", targets: ["showhide"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.20"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // MARK: C libraries from Debian
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg-dev"])]
        ),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CEXIF",
            pkgConfig: "libexif",
            providers: [.apt(["libexif-dev"])]
        ),
        .systemLibrary(
            name: "CHEIF",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]
        ),
        // libjpeg reports errors with longjmp; this C target owns the jmp_buf.
        .target(
            name: "CJPEGBridge",
            dependencies: ["CJPEG"],
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        // libheif is loaded when the first HEIF file is met (dlopen), not linked: this C target holds
        // the table of its functions; only its header is needed to build.
        .target(name: "CHEIFBridge"),
        // libtiff reads through callbacks and reports errors through a variadic handler: C owns both.
        // Like libheif, it is loaded when the first TIFF file is met, not linked: only its header
        // (libtiff-dev) is needed to build.
        .target(name: "CTIFFBridge"),
        // glibc's allocator told to keep freed memory for the next photo (mallopt, which Swift's Glibc
        // module does not export).
        .target(name: "CAllocator"),

        // MARK: Pure Swift
        .target(name: "Imaging"),
        .target(name: "ColourScience", dependencies: ["Imaging"]),

        // MARK: Codecs over the C libraries
        .target(
            name: "Codecs",
            dependencies: ["Imaging", "CJPEGBridge", "CPNG", "CEXIF", "CHEIFBridge", "CWebP", "CTIFFBridge"]
        ),

        // MARK: Catalogue: models and protocols; in SQLite: GRDB records and repositories, schema from Migrations/*.sql
        // SQLite at build time too: it applies the migrations to learn the schema they add up to.
        .executableTarget(name: "MigrationEmbedder", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")],
                          path: "Sources/MigrationEmbedder"),
        .plugin(
            name: "EmbedMigrations",
            capability: .buildTool(),
            dependencies: ["MigrationEmbedder"],
            path: "Sources/EmbedMigrations"
        ),
        // The domain models and the protocols services use: no GRDB, so no service can reach SQL.
        .target(name: "Catalogue", dependencies: ["Imaging", "ColourScience"]),
        .target(
            name: "CatalogueSQLite",
            dependencies: ["Catalogue", "Imaging", "ColourScience", .product(name: "GRDB", package: "GRDB.swift"),
                           .product(name: "GRDBSQLite", package: "GRDB.swift")],
            plugins: ["EmbedMigrations"]
        ),

        // MARK: Services (depend on protocols, not on codecs or GRDB)
        .target(
            name: "Services",
            dependencies: ["Imaging", "ColourScience", "Catalogue", .product(name: "Crypto", package: "swift-crypto")]
        ),

        // MARK: Zip archives for exports (an export destination over ZIPFoundation)
        .target(name: "Archives", dependencies: ["Imaging", "Services", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),

        // MARK: The documented JSON shapes, shared by the command line's --json and the web gallery's API
        .target(name: "GalleryJSON", dependencies: ["Catalogue", "ColourScience", "Imaging", "Services"]),

        // MARK: The web gallery (`showhide serve`): routes, pages, thumbnails served by id
        .target(
            name: "WebGallery",
            dependencies: ["GalleryJSON", "Services", "Catalogue", "ColourScience", "Imaging",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Mustache", package: "swift-mustache")]
        ),

        // MARK: Command line
        .target(
            name: "ShowHideCLI",
            dependencies: [
                "Services", "Codecs", "Catalogue", "CatalogueSQLite", "ColourScience", "Imaging", "Archives", "GalleryJSON", "WebGallery",
                "CAllocator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Mustache", package: "swift-mustache"),
            ],
            plugins: ["EmbedBuildInfo"]
        ),
        // The commit a build comes from, for --version.
        .plugin(name: "EmbedBuildInfo", capability: .buildTool(), path: "Sources/EmbedBuildInfo"),
        .executableTarget(name: "showhide", dependencies: ["ShowHideCLI"]),

        // MARK: Benchmarks (release mode, through scripts/bench; not part of the tests)
        .executableTarget(name: "SearchBenchmark", dependencies: ["Catalogue", "CatalogueSQLite", "ColourScience", "Imaging"]),

        // MARK: Quality of the eye (scripts/eval-colour on a labelled set; not part of the tests)
        .executableTarget(name: "ColourEvaluation", dependencies: ["Services", "Catalogue", "CatalogueSQLite", "Codecs", "ColourScience", "Imaging"]),
        // The eye's learned weights, fitted from the labelled photos (scripts/fit-eye writes LearnedWeights.swift).
        .executableTarget(name: "EyeFitting", dependencies: ["Services", "Codecs", "ColourScience", "Imaging"]),

        // MARK: Fuzzing (libFuzzer through scripts/fuzz; an ordinary build replays inputs)
        .executableTarget(name: "showhide-fuzz", dependencies: ["Codecs", "Imaging"]),
        .executableTarget(name: "FuzzSeeds", dependencies: ["Codecs", "Imaging", "Fixtures"]),

        // MARK: Tests
        // Test fixtures without XCTest (images, EXIF and PNG writers: FuzzSeeds uses them too); fakes and
        // spies for services; helpers for command tests.
        .target(name: "Fixtures", dependencies: ["Imaging", "ColourScience", "CHEIF"]),
        .target(name: "TestSupport", dependencies: ["Fixtures", "Imaging", "ColourScience", "Catalogue", "Services"]),
        .target(name: "CLITestSupport", dependencies: ["TestSupport", "Imaging", "Catalogue", "Services", "ShowHideCLI",
                                                 .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
        .testTarget(name: "ColourScienceTests", dependencies: ["ColourScience", "Imaging", "TestSupport"]),
        .target(
            name: "CJPEGFixtures",
            dependencies: ["CJPEG"],
            path: "Tests/CJPEGFixtures",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "Imaging", "TestSupport", "Fixtures", "CJPEGFixtures", "CWebP", "CTIFFBridge"]),
        .testTarget(name: "CatalogueTests", dependencies: ["Catalogue", "CatalogueSQLite", "ColourScience", "Imaging", "TestSupport",
                                                          .product(name: "GRDB", package: "GRDB.swift")]),
        .testTarget(name: "ServicesTests", dependencies: ["Services", "Catalogue", "ColourScience", "Imaging", "TestSupport"]),
        .testTarget(name: "WebGalleryTests", dependencies: ["WebGallery", "GalleryJSON", "Services", "Catalogue", "CatalogueSQLite",
                                                            "ColourScience", "Imaging", "TestSupport",
                                                            .product(name: "HummingbirdTesting", package: "hummingbird"),
                                                            .product(name: "HTTPTypes", package: "swift-http-types"),
                                                            .product(name: "Logging", package: "swift-log")]),
        .testTarget(name: "ArchivesTests", dependencies: ["Archives", "Services", "TestSupport",
                                                          .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(
            name: "ShowHideCLITests",
            dependencies: ["ShowHideCLI", "Services", "Catalogue", "CatalogueSQLite", "ColourScience", "Codecs", "Imaging", "TestSupport",
                           "CLITestSupport", "GalleryJSON", "CAllocator"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["showhide", "Codecs", "ColourScience", "Imaging", "Services", "TestSupport", "CJPEGFixtures",
                                                         "Catalogue", "CatalogueSQLite",
                                                         .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                                                         .product(name: "GRDB", package: "GRDB.swift")]),
        // Benchmarks (XCTest `measure` blocks) on generated images: run in release mode by scripts/bench,
        // skipped by scripts/test.
        .testTarget(name: "PerformanceTests", dependencies: ["ColourScience", "Codecs", "Imaging", "Catalogue", "CatalogueSQLite", "TestSupport"]),
    ]
)

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
        // libjpeg reports errors with longjmp; this C target owns the jmp_buf.
        .target(
            name: "CJPEGBridge",
            dependencies: ["CJPEG"],
            linkerSettings: [.linkedLibrary("jpeg")]
        ),

        // MARK: Pure Swift
        .target(name: "Imaging"),

        // MARK: Codecs over the C libraries
        .target(
            name: "Codecs",
            dependencies: ["Imaging", "CJPEGBridge", "CPNG", "CEXIF"]
        ),

        // MARK: Services (depend on protocols, not on codecs)
        .target(
            name: "Services",
            dependencies: ["Imaging"]
        ),

        // MARK: Command line
        .target(
            name: "ShowHideCLI",
            dependencies: [
                "Services", "Codecs", "Imaging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "showhide", dependencies: ["ShowHideCLI"]),

        // MARK: Tests
        .target(name: "TestSupport", dependencies: ["Imaging", "Services", "ShowHideCLI"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "TestSupport"]),
        .target(
            name: "CJPEGFixtures",
            dependencies: ["CJPEG"],
            path: "Tests/CJPEGFixtures",
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        .testTarget(name: "CodecsTests", dependencies: ["Codecs", "Imaging", "TestSupport", "CJPEGFixtures"]),
        .testTarget(name: "ServicesTests", dependencies: ["Services", "Imaging", "TestSupport"]),
        .testTarget(
            name: "ShowHideCLITests",
            dependencies: ["ShowHideCLI", "Services", "Codecs", "Imaging", "TestSupport"]
        ),
        .testTarget(name: "EndToEndTests", dependencies: ["showhide", "Codecs", "Imaging", "TestSupport"]),
    ]
)

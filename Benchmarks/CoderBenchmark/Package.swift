// swift-tools-version:6.2
import PackageDescription

// RecordEncoder and RecordDecoder beside the same mapping written by hand and beside Foundation's
// JSON coders, in one run; and the Web Services client's own cost (ClientPath.swift). A package of its own, so that `swift test` in the package above does
// not build it. From the package root:
//
//     swift run -c release --package-path Benchmarks/CoderBenchmark benchmark
//     swift run -c release --package-path Benchmarks/CoderBenchmark benchmark --quick
let package = Package(
    name: "CoderBenchmark",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "RecordCodable", path: "../..")],
    targets: [
        .executableTarget(
            name: "benchmark",
            dependencies: [
                "CodableFloor",
                .product(name: "RecordCodable", package: "RecordCodable"),
                .product(name: "CloudKitWebServices", package: "RecordCodable"),
            ],
            exclude: ["generate-wide-model.py"]
        ),
        // The benchmark's measuring stick: the least a Codable record coder can do.
        .target(
            name: "CodableFloor",
            dependencies: [.product(name: "RecordCodable", package: "RecordCodable")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

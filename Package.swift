// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "RecordCodable",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "RecordCodable", targets: ["RecordCodable"])
    ],
    targets: [
        .target(name: "RecordCodable"),
        .executableTarget(
            name: "quickstart",
            dependencies: ["RecordCodable"],
            path: "Examples/quickstart"
        ),
        .executableTarget(
            name: "assets-and-references",
            dependencies: ["RecordCodable"],
            path: "Examples/assets-and-references"
        ),
        .executableTarget(
            name: "server-json",
            dependencies: ["RecordCodable"],
            path: "Examples/server-json"
        ),
        .executableTarget(
            name: "benchmark",
            dependencies: ["RecordCodable"],
            path: "Benchmarks/benchmark",
            exclude: ["generate-wide-model.py"]
        ),
        .testTarget(
            name: "RecordCodableTests",
            dependencies: ["RecordCodable"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

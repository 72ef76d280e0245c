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
            name: "schema",
            dependencies: ["RecordCodable"],
            path: "Examples/schema",
            exclude: ["schema.ckdb"]
        ),
        .executableTarget(
            name: "benchmark",
            dependencies: ["RecordCodable", "CodableFloor"],
            path: "Benchmarks/benchmark",
            exclude: ["generate-wide-model.py"]
        ),
        // The benchmark's measuring stick: the least a Codable record coder can do.
        .target(
            name: "CodableFloor",
            dependencies: ["RecordCodable"],
            path: "Benchmarks/CodableFloor"
        ),
        .testTarget(
            name: "RecordCodableTests",
            dependencies: ["RecordCodable"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

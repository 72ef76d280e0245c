// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "RecordCodable",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "RecordCodable", targets: ["RecordCodable"]),
        // The module is RecordStoreKit so that its main type, RecordStore, is never hidden by
        // a module of the same name (Swift looks a name up as a module's type first).
        .library(name: "RecordStore", targets: ["RecordStoreKit"]),
        // The .ckdb tool: validate, format as cktool writes, and diff CloudKit schema files.
        .executable(name: "ckdb", targets: ["ckdb"]),
    ],
    targets: [
        .target(name: "RecordCodable"),
        .target(
            name: "RecordStoreKit",
            dependencies: ["RecordCodable"],
            path: "Sources/RecordStore"
        ),
        .executableTarget(
            name: "ckdb",
            dependencies: ["RecordCodable"]
        ),
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
            name: "notes-offline",
            dependencies: ["RecordCodable", "RecordStoreKit"],
            path: "Examples/notes-offline"
        ),
        .testTarget(
            name: "RecordCodableTests",
            dependencies: ["RecordCodable"]
        ),
        // A process that the crash tests start, write through and kill: it lives with the tests,
        // outside the library.
        .executableTarget(
            name: "record-store-crash-child",
            dependencies: ["RecordStoreKit"],
            path: "Tests/RecordStoreCrashChild"
        ),
        .testTarget(
            name: "RecordStoreTests",
            dependencies: ["RecordStoreKit", "record-store-crash-child"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

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
        // Record <-> CKRecord on Apple platforms; an empty module elsewhere.
        .library(name: "RecordCodableCloudKit", targets: ["RecordCodableCloudKit"]),
        // CloudKit Web Services over HTTP: records, zones, assets and the store's sync loop's service.
        .library(name: "CloudKitWebServices", targets: ["CloudKitWebServices"]),
    ],
    traits: [
        .trait(
            name: "CloudKitShim",
            description: """
                Compiles RecordCodableCloudKit and its tests on Linux against a shim of the part of CloudKit's \
                and Core Location's API that the bridge uses, so that CI can test the bridge without Apple's \
                SDK. For this package's own tests only: the shim is not CloudKit.
                """
        )
    ],
    targets: [
        .target(name: "RecordCodable"),
        .target(
            name: "RecordStoreKit",
            dependencies: ["RecordCodable"],
            path: "Sources/RecordStore"
        ),
        // The bridge: its source imports CloudKit where it can, else the shim when the trait is on (Linux).
        .target(
            name: "RecordCodableCloudKit",
            dependencies: [
                "RecordCodable",
                .target(name: "CloudKitAPIShim", condition: .when(platforms: [.linux], traits: ["CloudKitShim"])),
            ]
        ),
        // CloudKit's and Core Location's API as the bridge uses it, for Linux. SwiftPM builds every target of
        // the root package, and a trait cannot remove one, so its sources are empty unless the trait is on.
        // Never named CloudKit or CoreLocation: every module lands in one folder, and canImport would see it.
        .target(
            name: "CloudKitAPIShim",
            path: "Tests/CloudKitShim",
            exclude: ["README.md"]
        ),
        .target(
            name: "CloudKitWebServices",
            dependencies: ["RecordCodable"]
        ),
        // A stand-in for CloudKit Web Services on the loopback: its records semantics, recorded real traffic
        // replayed, and the faults a network has. For the tests, the benchmark and the cloudkit-sync example;
        // not a product.
        .target(
            name: "CloudKitStandIn",
            dependencies: ["RecordCodable"],
            path: "Tests/CloudKitStandIn",
            exclude: ["README.md"]
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
        // Syncs the notes store with CloudKitStandIn on the loopback, or a real container given credentials.
        .executableTarget(
            name: "cloudkit-sync",
            dependencies: ["RecordCodable", "RecordStoreKit", "CloudKitWebServices", "CloudKitStandIn"],
            path: "Examples/cloudkit-sync"
        ),
        // A RecordStore synced with the stand-in over the loopback, timed (release build): a target of
        // this package because CloudKitStandIn is not a product (Benchmarks/SyncBenchmark/README.md).
        .executableTarget(
            name: "sync-benchmark",
            dependencies: ["RecordCodable", "RecordStoreKit", "CloudKitWebServices", "CloudKitStandIn"],
            path: "Benchmarks/SyncBenchmark",
            exclude: ["README.md"]
        ),
        .testTarget(
            name: "RecordCodableTests",
            dependencies: ["RecordCodable"]
        ),
        .testTarget(
            name: "RecordCodableCloudKitTests",
            dependencies: [
                "RecordCodableCloudKit", "RecordCodable",
                .target(name: "CloudKitAPIShim", condition: .when(platforms: [.linux], traits: ["CloudKitShim"])),
            ]
        ),
        // A process that the crash tests start, write through and kill: it lives with the tests,
        // outside the library.
        .executableTarget(
            name: "record-store-crash-child",
            dependencies: ["RecordStoreKit", "CloudKitWebServices"],
            path: "Tests/RecordStoreCrashChild"
        ),
        .testTarget(
            name: "RecordStoreTests",
            dependencies: ["RecordStoreKit", "record-store-crash-child", "CloudKitStandIn", "CloudKitWebServices"]
        ),
        .testTarget(
            name: "CloudKitWebServicesTests",
            dependencies: ["CloudKitWebServices", "RecordCodable", "CloudKitStandIn"]
        ),

    ],
    swiftLanguageModes: [.v6]
)

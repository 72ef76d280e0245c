// swift-tools-version:6.2
import PackageDescription

// RecordStore beside SQLite, in one run. A package of its own, so that the library keeps no
// dependency: it links the system's SQLite (libsqlite3-dev on Debian and Ubuntu).
//
//     swift run -c release --package-path Benchmarks/StoreBenchmark store-benchmark
//     swift run -c release --package-path Benchmarks/StoreBenchmark store-benchmark --quick
let package = Package(
    name: "StoreBenchmark",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "RecordCodable", path: "../..")],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .executableTarget(
            name: "store-benchmark",
            dependencies: [
                "CSQLite",
                .product(name: "RecordStore", package: "RecordCodable"),
                .product(name: "RecordCodable", package: "RecordCodable"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// swift-tools-version: 6.1
// Sheaf's release benchmarks: their own package, so the main package's tests never build or run
// them. `swift run -c release --package-path Benchmarks sheaf-bench --notes 10000`.
import PackageDescription

let package = Package(
    name: "SheafBenchmarks",
    products: [.executable(name: "sheaf-bench", targets: ["sheaf-bench"])],
    targets: [.executableTarget(name: "sheaf-bench")],
    swiftLanguageModes: [.v6]
)

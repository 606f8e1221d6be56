"""Command-line tools that drive the engine: benchmarks and measurements."""

#!/usr/bin/env bash
# Builds the libFuzzer binary and runs each target for a bounded time.
#
#   Fuzz/run.sh            # each target for 60 seconds
#   Fuzz/run.sh 600        # each target for 10 minutes
#
# Run from the package root. A crash stops the run with a non-zero status and leaves the input
# that caused it as Fuzz/crash-<target>-*; turn it into a regression test, fix the cause, and keep
# the input in the target's corpus.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
# AddressSanitizer prints the stack of a crash. Swift's own backtracer, left on, would stop there
# and wait instead of letting the fuzzer save the input and exit.
export SWIFT_BACKTRACE=enable=no
build=.build-fuzz
mkdir -p "$build"

sources=$(find Sources/RecordCodable -name '*.swift' | sort)
echo "Building the fuzzing binary (libFuzzer and AddressSanitizer)…"
# The linker's notes about the sanitizer's local symbols are noise; real errors still stop the build.
# shellcheck disable=SC2086
swiftc -sanitize=fuzzer,address -parse-as-library -O -g -module-name RecordCodableFuzz \
    $sources Fuzz/FuzzTargets.swift -o "$build/fuzz" 2>&1 | { grep -v "Cannot export local symbol" || true; }

for target in json record wire; do
    corpus="$build/corpus-$target"
    mkdir -p "$corpus"
    cp Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    echo "Fuzzing '$target' for $seconds seconds…"
    RECORD_FUZZ_TARGET=$target "$build/fuzz" "$corpus" \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="Fuzz/crash-$target-" -print_final_stats=1 2>&1 | tail -n 12
done
echo "Fuzzing found no crash."

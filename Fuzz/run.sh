#!/usr/bin/env bash
# Builds the libFuzzer binaries and runs each target for a bounded time.
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

# RecordCodable is built once, as a module that the targets import with `@testable` (they check
# its internal JSON tape). The store's target is compiled into the store's own module instead, to
# write journals with the store's internal frame types.
codable_sources=$(find Sources/RecordCodable -name '*.swift' | sort)
store_sources=$(find Sources/RecordStore -name '*.swift' | sort)
flags=(-sanitize=fuzzer,address -parse-as-library -O -g -package-name RecordCodable)
# The linker's notes about the sanitizer's local symbols are noise; real errors still stop the build.
quiet() { "$@" 2>&1 | { grep -v "Cannot export local symbol" || true; }; }
echo "Building the fuzzing binaries (libFuzzer and AddressSanitizer)…"
# shellcheck disable=SC2086
quiet swiftc "${flags[@]}" -enable-testing -module-name RecordCodable -emit-module \
    -emit-module-path "$build/RecordCodable.swiftmodule" -emit-library -static \
    -o "$build/libRecordCodable.a" $codable_sources
quiet swiftc "${flags[@]}" -module-name RecordCodableFuzz -I "$build" \
    Fuzz/FuzzTargets.swift "$build/libRecordCodable.a" -o "$build/fuzz"
# shellcheck disable=SC2086
quiet swiftc "${flags[@]}" -module-name RecordStoreKit -I "$build" \
    $store_sources Fuzz/StoreFuzzTarget.swift "$build/libRecordCodable.a" -o "$build/fuzz-store"

for target in json record wire store sync ops; do
    corpus="$build/corpus-$target"
    mkdir -p "$corpus"
    cp Fuzz/corpus/"$target"/* "$corpus"/ 2>/dev/null || true
    binary="$build/fuzz"
    case "$target" in store | sync | ops) binary="$build/fuzz-store" ;; esac
    echo "Fuzzing '$target' for $seconds seconds…"
    log="$build/log-$target"
    if ! RECORD_FUZZ_TARGET=$target "$binary" "$corpus" \
        -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=4096 \
        -artifact_prefix="Fuzz/crash-$target-" -print_final_stats=1 >"$log" 2>&1; then
        # The property that failed is printed before the sanitizer's stack and the statistics.
        grep -m 3 -E "fuzz property failed|ERROR: " "$log" || true
        tail -n 60 "$log"
        exit 1
    fi
    tail -n 6 "$log"
done
echo "Fuzzing found no crash."

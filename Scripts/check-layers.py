#!/usr/bin/env python3
"""Checks that each module's folders depend one way, from the ground up.

Every module under Sources/ declares its folders below, lowest first: a folder may use the types
of the folders listed before it, never of those after it. The script derives the folder-to-folder
edges from the source itself. It finds every type that a file declares at its top level (struct,
class, enum, protocol, actor, typealias; not private or fileprivate ones, which no other file can
name), then every use of such a name in another folder's files, comments and string literals left
out. An `extension Record` in Store/ is a use of Core/'s `Record`, so it counts.

It fails, printing the declared order and each offending reference (file, line, name), when:
- a folder uses a type of a folder declared after it (an edge against the order; a cycle between
  folders always includes one);
- a module has a folder the order does not list, or a Swift file outside any folder.

Usage:
    Scripts/check-layers.py            check every module (run by .ci/run)
    Scripts/check-layers.py --edges    also print every edge found, with its count
    Scripts/check-layers.py --self-test
                                       plant an upward edge in a copy of each module and a cycle
                                       in a small made-up one, and check that both are caught
"""

import os
import re
import shutil
import sys
import tempfile
from collections import defaultdict

# Lowest first. A folder may depend on those before it.
ORDER = {
    "RecordCodable": [
        "Support",  # generic helpers that know nothing of records: coding paths, errors, locks, SHA-256
        "JSON",  # the byte-level JSON engine: tape, parser, writer, text (knows nothing of CloudKit)
        "Core",  # Record, RecordValue and its kinds, metadata, name rules, key-strategy vocabulary
        "Model",  # what a model adopts: RecordRepresentable, RecordEnum, Encrypted, Link, asset values
        "Wire",  # a record's CloudKit JSON form, field kinds, RecordJSONEncoder and RecordJSONDecoder
        "Service",  # the records, zones and assets bodies, server errors, the signing message
        "Decoding",  # RecordDecoder: Record -> model
        "Encoding",  # RecordEncoder: model -> Record
        "SaveCycle",  # updates of what changed, model conveniences on request bodies
        "Schema",  # the schema language and its checks against models
    ],
    "ckdb": [
        "Support",  # how the tool ends (its exit status), files read
        "Commands",  # validate, format, diff, the help, main.swift (the work is RecordCodable's Schema/)
    ],
    "RecordCodableCloudKit": [
        "Support",  # the bridge's coding-path keys and error builders
        "Values",  # each RecordValue <-> the object a CKRecord holds: numbers, lists, assets, references, zones, locations
        "SystemFields",  # CloudKitSystemFields: the archive of a CKRecord's system fields
        "Records",  # Record and model <-> CKRecord: fields, encrypted and cleared fields, metadata, the checks before CloudKit
    ],
    "CloudKitWebServices": [
        "Support",  # environments and scopes, shared vocabulary of the client
        "Transport",  # CloudKitTransport and URLSessionTransport: one HTTP exchange, never retried
        "Client",  # CloudKitDatabase, its authentication, and one call's exchange with its retries
        "Calls",  # the records, zones and assets calls: splitting, refused records resent, lost answers settled
        "Paging",  # CloudKitPages: query markers and changes' moreComing followed as AsyncSequences
        "Models",  # models saved, fetched and queried through RecordEncoder and RecordDecoder
    ],
    "RecordStore": [
        "Core",  # RecordStoreError, RecordStoreCipher, RecordKey, SyncStatus, a record's state
        "Bytes",  # byte reader and writer, CRC-32: formats that know nothing of files
        "Files",  # the file protocols, their disk and memory forms, test fault injection
        "Journal",  # frames, the append-only journal, its scan on opening
        "Engine",  # commit, compaction, the index, the entry format
        "Sync",  # the sync rules: what local edits and server answers do to a record's state
        "Queries",  # queries, their secondary indexes, the streams of committed changes
        "Store",  # RecordStore's public API: reads, writes, batches, models, sync
        "SyncLoop",  # sync(with:): the loop that drives the sync cycle through a RecordSyncService
        "KeyValue",  # the typed key-value view over a store
    ],
}

DECLARATION = re.compile(
    r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*"
    r"((?:(?:public|internal|package|private|fileprivate|final|indirect|open|nonisolated)\s+)*)"
    r"(?:struct|class|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)"
)
IDENTIFIER = re.compile(r"\b[A-Za-z_]\w*\b")


def without_comments_and_strings(source):
    """The source with comments and string literals blanked, line breaks kept."""
    out = []
    i, n = 0, len(source)
    while i < n:
        if source.startswith("//", i):
            end = source.find("\n", i)
            i = n if end < 0 else end
            continue
        if source.startswith("/*", i):
            depth, i = 1, i + 2
            while i < n and depth:
                if source.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif source.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    out.append("\n" if source[i] == "\n" else "")
                    i += 1
            continue
        opening = re.match(r'(#*)("""|")', source[i : i + 8])
        if opening:
            hashes, quote = opening.group(1), opening.group(2)
            closing = quote + hashes
            i += len(opening.group(0))
            while i < n:
                if source[i] == "\\" and not hashes:
                    i += 2
                    continue
                if source.startswith(closing, i):
                    i += len(closing)
                    break
                if source[i] == "\n":
                    out.append("\n")
                i += 1
            out.append('""')
            continue
        out.append(source[i])
        i += 1
    return "".join(out)


def read_module(root):
    """Each Swift file of the module under `root`: its folder and its source without comments."""
    files = []
    for directory, _, names in os.walk(root):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(directory, name)
                relative = os.path.relpath(path, root)
                folder = relative.split(os.sep)[0] if os.sep in relative else None
                with open(path, encoding="utf-8") as handle:
                    files.append((relative, folder, without_comments_and_strings(handle.read())))
    return files


def declared_types(files):
    """Each name declared at a file's top level, and the folders that declare it."""
    owners = defaultdict(set)
    for _, folder, source in files:
        depth = 0
        for line in source.split("\n"):
            if depth == 0:
                match = DECLARATION.match(line)
                if match and not re.search(r"\b(private|fileprivate)\b", match.group(1)):
                    owners[match.group(2)].add(folder)
            depth += line.count("{") - line.count("}")
    return owners


def references(files, owners):
    """(from folder, to folder) -> [(file, line, name)] for each use of another folder's type."""
    edges = defaultdict(list)
    for relative, folder, source in files:
        for number, line in enumerate(source.split("\n"), start=1):
            for name in set(IDENTIFIER.findall(line)):
                for owner in owners.get(name, ()):
                    if owner != folder:
                        edges[(folder, owner)].append((relative, number, name))
    return edges


def check_module(name, root, order, show_edges=False, out=sys.stdout):
    """Prints the module's order and any fault; returns the number of faults."""
    files = read_module(root)
    folders = sorted({folder for _, folder, _ in files if folder})
    rank = {folder: index for index, folder in enumerate(order)}
    faults = 0
    print(f"{name}: {' < '.join(order)}", file=out)
    for relative, folder, _ in files:
        if folder is None:
            print(f"  {relative}: a file outside any folder; put it in one of the folders above", file=out)
            faults += 1
    for folder in folders:
        if folder not in rank:
            print(f"  {folder}/: a folder the order does not list (add it to ORDER in {sys.argv[0]})", file=out)
            faults += 1
    edges = references(files, declared_types(files))
    for (source, target), uses in sorted(edges.items(), key=lambda item: (rank.get(item[0][0], 99), item[0][1])):
        if source is None or source not in rank or target not in rank:
            continue
        if show_edges:
            print(f"  {source} -> {target}: {len(uses)} references", file=out)
        if rank[target] > rank[source]:
            faults += 1
            print(f"  {source} -> {target}: against the order ({target} is above {source}):", file=out)
            for relative, number, used in sorted(uses)[:20]:
                print(f"    {name}/{relative}:{number} uses {used} (declared in {target}/)", file=out)
            if len(uses) > 20:
                print(f"    … and {len(uses) - 20} more", file=out)
    return faults


def check_all(sources, show_edges=False):
    faults = 0
    for module, order in ORDER.items():
        faults += check_module(module, os.path.join(sources, module), order, show_edges)
    present = {entry for entry in os.listdir(sources) if os.path.isdir(os.path.join(sources, entry))}
    for module in sorted(present - set(ORDER)):
        print(f"{module}: a module with no declared order (add it to ORDER in {sys.argv[0]})")
        faults += 1
    return faults


def self_test(sources):
    """Plants faults in copies and checks that each one is caught."""
    import io

    failures = 0
    with tempfile.TemporaryDirectory() as scratch:
        for module, order in ORDER.items():
            if len(order) < 2:
                print(f"{module}: one folder, no edge to plant")
                continue
            copy = os.path.join(scratch, module)
            shutil.copytree(os.path.join(sources, module), copy)
            top_types = sorted(
                name for name, owners in declared_types(read_module(copy)).items() if owners == {order[-1]}
            )
            planted = os.path.join(copy, order[0], "PlantedEdge.swift")
            with open(planted, "w") as handle:
                handle.write(f"// A use of {top_types[0]} in a comment is not an edge.\n")
                handle.write(f"func plantedEdge(_ value: {top_types[0]}) {{}}\n")
            report = io.StringIO()
            found = check_module(module, copy, order, out=report)
            caught = found == 1 and f"{order[0]}/PlantedEdge.swift:2 uses {top_types[0]}" in report.getvalue()
            print(f"{module}: an edge from {order[0]} up to {order[-1]} ({top_types[0]}) is "
                  f"{'caught' if caught else 'MISSED'}")
            failures += 0 if caught else 1
        made_up = os.path.join(scratch, "MadeUp")
        for folder, text in {
            "Low": "struct LowThing { var high: HighThing? }\n",
            "High": 'struct HighThing { var low: LowThing? }\n// "LowThing" in a string\n',
        }.items():
            os.makedirs(os.path.join(made_up, folder))
            with open(os.path.join(made_up, folder, f"{folder}.swift"), "w") as handle:
                handle.write(text)
        report = io.StringIO()
        found = check_module("MadeUp", made_up, ["Low", "High"], out=report)
        caught = found == 1 and "Low -> High: against the order" in report.getvalue()
        print(f"MadeUp: a cycle between Low and High is {'caught' if caught else 'MISSED'}")
        failures += 0 if caught else 1
        os.makedirs(os.path.join(made_up, "Stray"))
        with open(os.path.join(made_up, "Stray", "Stray.swift"), "w") as handle:
            handle.write("struct StrayThing {}\n")
        report = io.StringIO()
        caught = check_module("MadeUp", made_up, ["Low", "High"], out=report) == 2 and "Stray/" in report.getvalue()
        print(f"MadeUp: a folder the order does not list is {'caught' if caught else 'MISSED'}")
        failures += 0 if caught else 1
    return failures


def main():
    sources = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Sources")
    if "--self-test" in sys.argv:
        failures = self_test(sources)
        print("self-test " + ("passed" if failures == 0 else f"failed ({failures})"))
        return 1 if failures else 0
    faults = check_all(sources, show_edges="--edges" in sys.argv)
    print("layers: one direction" if faults == 0 else f"layers: {faults} fault(s)")
    return 1 if faults else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Compares each Swift target's declared dependencies (Package.swift) with the modules its sources import.

Fails (exit 1) on a declared dependency that no source of the target imports (it only slows builds and
hides the real layering) and on an imported module of this package or of a dependency package that the
target does not declare (it builds today only because another dependency happens to bring it along).
Reads the manifest through `swift package describe --type json`, so what is compared is what SwiftPM sees.
C and system-library targets are not checked (their dependencies are #include'd headers and linker flags).

Usage: scripts/check-deps.py [--describe FILE]   (FILE: a saved `swift package describe --type json`)
"""

import json
import os
import re
import subprocess
import sys

# Modules the toolchain and the system provide: importing them needs no declaration.
TOOLCHAIN_MODULES = {
    "Foundation", "FoundationEssentials", "FoundationInternationalization", "FoundationNetworking",
    "FoundationXML", "CoreFoundation", "Glibc", "Musl", "Darwin", "os", "Dispatch", "Synchronization",
    "Testing", "XCTest", "_Concurrency", "Observation", "RegexBuilder", "_StringProcessing", "Distributed",
    "Android", "WinSDK", "ucrt", "SwiftShims", "Cxx", "CxxStdlib", "Swift",
}

IMPORT = re.compile(
    r"^[ \t]*(?:@[A-Za-z_]+(?:\([^)]*\))?[ \t]+)*"
    r"(?:(?:public|package|internal|fileprivate|private)[ \t]+)?"
    r"import[ \t]+(?:(?:struct|class|enum|protocol|func|var|let|typealias)[ \t]+)?"
    r"([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
# Multi-line string literals (test scripts in Python or shell) may hold lines that look like imports.
MULTILINE_STRING = re.compile(r'#*""".*?"""#*', re.DOTALL)


def describe(path):
    if path:
        with open(path) as f:
            return json.load(f)
    out = subprocess.run(["swift", "package", "describe", "--type", "json"], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    return json.loads(out)


def imports_of(root, target):
    found = {}
    for source in target.get("sources", []):
        if not source.endswith(".swift"):
            continue
        path = os.path.join(root, target["path"], source)
        with open(path, encoding="utf-8") as f:
            text = MULTILINE_STRING.sub("", f.read())
        for match in IMPORT.finditer(text):
            found.setdefault(match.group(1), os.path.relpath(path, root))
    return found


def main():
    saved = sys.argv[2] if len(sys.argv) == 3 and sys.argv[1] == "--describe" else None
    package = describe(saved)
    root = package["path"]
    targets = package["targets"]
    own_modules = {t["c99name"]: t["name"] for t in targets}
    problems = []
    for target in sorted(targets, key=lambda t: t["name"]):
        if target["module_type"] != "SwiftTarget":
            continue
        declared_targets = set(target.get("target_dependencies", []))
        declared_products = set(target.get("product_dependencies", []))
        imported = imports_of(root, target)
        imported_modules = set(imported)
        where = target["path"]
        for name in sorted(declared_targets):
            module = next((t["c99name"] for t in targets if t["name"] == name), name)
            if module not in imported_modules:
                problems.append(f"{where}: '{name}' is declared in Package.swift but no source imports it")
        for product in sorted(declared_products):
            # The products this package uses are each one module of the product's name.
            if product not in imported_modules:
                problems.append(f"{where}: product '{product}' is declared in Package.swift but no source imports it")
        declared_modules = {
            next((t["c99name"] for t in targets if t["name"] == name), name) for name in declared_targets
        } | declared_products
        for module, path in sorted(imported.items()):
            if module in TOOLCHAIN_MODULES or module in declared_modules or module == target["c99name"]:
                continue
            kind = "target" if module in own_modules else "module of a dependency package"
            problems.append(f"{path}: imports {kind} '{module}', which '{target['name']}' does not declare")
    for line in problems:
        print(line)
    if problems:
        print(f"check-deps: {len(problems)} finding(s); declare what a target imports, and only that")
        return 1
    print(f"check-deps: {sum(t['module_type'] == 'SwiftTarget' for t in targets)} Swift targets, "
          "dependencies match imports")
    return 0


if __name__ == "__main__":
    sys.exit(main())

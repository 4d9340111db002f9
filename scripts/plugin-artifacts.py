#!/usr/bin/env python3
"""Prints `<plugin .so> <libMLIR-C.so>` from a `cargo build --message-format=json` log.

usage: plugin-artifacts.py CARGO_JSON ROOT_MANIFEST [PLUGIN_TARGET [CAPI_SUBPATH]]

Artifacts are found by what cargo states structurally, never by the spelling of a
package id (a path package's id is `path+file:///…/pld#0.1.0` in a folder named
after the package and `…/x#pld@0.1.0` elsewhere): the root package is the one
whose `manifest_path` is ROOT_MANIFEST, its build-script output the
`build-script-executed` message with that package's id, and the plugin the
compiler artifact whose target is named PLUGIN_TARGET (default PldPlugin).
"""
import json
import os
import sys


def main(argv):
    if len(argv) not in (3, 4, 5):
        sys.exit(__doc__.strip().splitlines()[2])
    log, manifest = argv[1], os.path.realpath(argv[2])
    target = argv[3] if len(argv) > 3 else "PldPlugin"
    capi_sub = argv[4] if len(argv) > 4 else "build/lib/libMLIR-C.so"
    msgs = [json.loads(line) for line in open(log) if line.startswith("{")]
    plugin = root_id = None
    for msg in msgs:
        if msg.get("reason") != "compiler-artifact":
            continue
        if msg["target"]["name"] == target:
            plugin = next((f for f in msg["filenames"] if f.endswith(".so")), None)
        if os.path.realpath(msg["manifest_path"]) == manifest and "custom-build" not in msg["target"]["kind"]:
            root_id = msg["package_id"]
    out_dir = next((m["out_dir"] for m in msgs
                    if m.get("reason") == "build-script-executed" and m["package_id"] == root_id), None)
    if plugin is None:
        sys.exit(f"plugin-artifacts: cargo reported no `{target}` shared library in {log}")
    if out_dir is None:
        sys.exit(f"plugin-artifacts: cargo reported no build-script output of {argv[2]} in {log}")
    print(plugin, os.path.join(out_dir, capi_sub))


if __name__ == "__main__":
    main(sys.argv)

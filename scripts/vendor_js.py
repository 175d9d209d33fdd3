"""Vendor the explorer page's JavaScript libraries into the package, so the page works offline.

Fetches each library below from the npm registry with ``npm pack`` (pinned version, checked against
its pinned integrity hash), and copies the built files the page loads into
``mtgkb/serve/static/vendor/``, with a VENDORED.txt naming versions, hashes and licences. Run it
after changing a version (then update the hash it reports), and commit the result:

    python scripts/vendor_js.py
"""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[1] / "mtgkb" / "serve" / "static" / "vendor"

#: package, version, integrity (sha512, as npm reports it), licence, {file in the package: vendored name}
LIBRARIES = [
    (
        "cytoscape",
        "3.35.0",
        "sha512-sMvBIXiGMnhkCaWz2R06FwF/27MNlS+Tqvi17foO9UhnUg3XGZccKjxsvEqQFAQYMSSZmN5SxYzUYlQ0DOJJ3g==",
        "MIT",
        {"package/dist/cytoscape.min.js": "cytoscape.min.js", "package/LICENSE": "cytoscape.LICENSE"},
    ),
    (
        "@zazuko/yasgui",
        "4.6.2",
        "sha512-Zw45KdPoAE1KRaAoxIHdQqeJxvaVG1oQdntw0hy0ktX35Zu8ZccuOLrXCLwR+GU+0xMzLw8Mjw6BkSZV2vUuQw==",
        "MIT",
        {
            "package/build/yasgui.min.js": "yasgui.min.js",
            "package/build/yasgui.min.css": "yasgui.min.css",
            "package/package.json": "yasgui.package.json",  # its licence (MIT) and authors; no LICENSE file
        },
    ),
]


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def main() -> None:
    npm = shutil.which("npm") or sys.exit("npm is needed to fetch the libraries")
    VENDOR.mkdir(parents=True, exist_ok=True)
    lines = [
        "Vendored by scripts/vendor_js.py from the npm registry; do not edit these files by hand.",
        "",
    ]
    with tempfile.TemporaryDirectory() as folder:
        for package, version, integrity, licence, files in LIBRARIES:
            output = subprocess.run(
                [npm, "pack", "--json", f"{package}@{version}"],
                cwd=folder,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            tarball = Path(folder) / json.loads(output)[0]["filename"]
            actual = _integrity(tarball)
            if integrity is not None and actual != integrity:
                sys.exit(f"{package}@{version}: integrity {actual} is not the pinned {integrity}")
            with tarfile.open(tarball) as archive:
                for member, name in files.items():
                    source = archive.extractfile(member)
                    if source is None:
                        sys.exit(f"{package}@{version} has no {member}")
                    (VENDOR / name).write_bytes(source.read())
            lines.append(f"{package} {version} ({licence}) {actual}")
            lines += [
                f"  {member.removeprefix('package/')} -> vendor/{name}" for member, name in files.items()
            ]
            print(f"vendored {package}@{version} ({actual})")
    (VENDOR / "VENDORED.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

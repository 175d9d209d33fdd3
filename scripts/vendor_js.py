"""Vendor the explorer page's JavaScript libraries into the package, so the page works offline.

Fetches each library below from the npm registry with ``npm pack`` (pinned version, checked against
its pinned integrity hash), copies the built files the page loads into ``mtgkb/serve/static/vendor/``,
applies :data:`PATCHES` to them, and writes a VENDORED.txt naming versions, hashes, licences and
patches. Run it after changing a version (then update the hash it reports, and the patches if their
text moved), and commit the result:

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


#: Changes made to a vendored file, each an exact (old, new) replacement that must match once: the
#: YASR results table (YASGUI's "table" plugin) writes each cell as HTML, with a literal's language
#: tag as it came, its value and IRIs through DOMPurify (which keeps markup such as <img>, <b> or
#: <a href>), and the variable names as column titles likewise. The patched table escapes every one
#: of them (lodash's ``escape$1``, bundled beside it) and links an IRI only when it is http(s), so an
#: answer's every field is shown as text.
PATCHES: dict[str, list[tuple[str, str]]] = {
    "yasgui.min.js": [
        (
            "getUriLinkFromBinding(e,t){let n=sanitize_default(e.value),r=n,a=!1;if(t){for(let e in t)"
            "if(r.indexOf(t[e])==0){r=e+`:`+n.substring(t[e].length),a=!0;break}}"
            "let o=a||this.persistentConfig.compact;return sanitize_default(`${o?``:`&lt;`}"
            "<a class='iri' target='${this.config.openIriInNewWindow?`_blank`:`_self`}'"
            "${this.config.openIriInNewWindow?` ref='noopener noreferrer'`:``} href='${n}'>"
            "${sanitize_default(r)}</a>${o?``:`&gt;`}`)}",
            "getUriLinkFromBinding(e,t){let n=String(e.value),r=n,a=!1;if(t){for(let e in t)"
            "if(r.indexOf(t[e])==0){r=e+`:`+n.substring(t[e].length),a=!0;break}}"
            "let o=a||this.persistentConfig.compact,s=escape$1(r);return `${o?``:`&lt;`}"
            "${/^https?:\\/\\//i.test(n)?`<a class='iri' "
            "target='${this.config.openIriInNewWindow?`_blank`:`_self`}'"
            " rel='noopener noreferrer' href='${escape$1(n)}'>${s}</a>`:`<span class='iri'>${s}</span>`}"
            "${o?``:`&gt;`}`}",
        ),
        (
            "formatLiteral(e,t){let n=sanitize_default(escape$1(e.value));if(this.persistentConfig.compact)"
            'return n;if(e[`xml:lang`])n=`"${n}"<sup>@${e[`xml:lang`]}</sup>`;',
            "formatLiteral(e,t){let n=escape$1(e.value);if(this.persistentConfig.compact)"
            'return n;if(e[`xml:lang`])n=`"${n}"<sup>@${escape$1(e[`xml:lang`])}</sup>`;',
        ),
        (
            "...this.yasr.results?.getVariables().map(t=>({name:t,title:sanitize_default(t),"
            "render:(t,n,r,a)=>t===``?t:n===`filter`||n===`sort`||!n?sanitize_default(t.value):",
            "...this.yasr.results?.getVariables().map(t=>({name:t,title:escape$1(t),"
            "render:(t,n,r,a)=>t===``?t:n===`filter`||n===`sort`||!n?escape$1(t.value):",
        ),
    ],
}


def patched(name: str, data: bytes) -> bytes:
    """``data``, the vendored file ``name``, with its :data:`PATCHES` applied; exits when one of
    them does not match exactly once (a new version moved the text: write the patch again)."""
    text = data.decode("utf-8")
    for old, new in PATCHES.get(name, []):
        if text.count(old) != 1:
            sys.exit(f"{name}: the patch starting {old[:60]!r} matches {text.count(old)} times, not once")
        text = text.replace(old, new)
    return text.encode("utf-8")


def _integrity(path: Path) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(path.read_bytes()).digest()).decode()


def main() -> None:
    npm = shutil.which("npm") or sys.exit("npm is needed to fetch the libraries")
    VENDOR.mkdir(parents=True, exist_ok=True)
    lines = [
        "Vendored by scripts/vendor_js.py from the npm registry; do not edit these files by hand.",
        "Patched by its PATCHES: YASGUI's results table shows every field of an answer as text.",
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
                    (VENDOR / name).write_bytes(patched(name, source.read()))
            lines.append(f"{package} {version} ({licence}) {actual}")
            lines += [
                f"  {member.removeprefix('package/')} -> vendor/{name}" for member, name in files.items()
            ]
            for name in files.values():
                if name in PATCHES:
                    lines.append(f"  vendor/{name}: {len(PATCHES[name])} patches of scripts/vendor_js.py")
            print(f"vendored {package}@{version} ({actual})")
    (VENDOR / "VENDORED.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()

"""The package is layered: a module imports only from its own layer and the layers below it, and no
modules import each other in a loop (lazy imports inside functions count: they are dependencies too)."""

from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

PACKAGE = Path(__file__).resolve().parents[1] / "mtgkb"

#: Bottom to top. Each package's __init__ docstring says the same in words.
LAYERS = (
    ("mtgkb", "mtgkb.core"),
    ("mtgkb.kb",),
    ("mtgkb.lookups",),
    ("mtgkb.reasoning",),
    ("mtgkb.app",),
    ("mtgkb.importers",),
    ("mtgkb.exporters",),
    ("mtgkb.cli", "mtgkb.serve", "mtgkb.__main__"),
)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path, module: str) -> set[str]:
    """Every mtgkb module ``module`` imports, at its top or inside a function."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            found.add(base)
            # "from mtgkb.kb import build": the submodule is the dependency.
            found |= {f"{base}.{alias.name}" for alias in node.names}
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    return {name for name in found if name in modules and name != module}


def _graph() -> nx.DiGraph:
    graph = nx.DiGraph()
    for path in PACKAGE.rglob("*.py"):
        module = _module_name(path)
        graph.add_node(module)
        graph.add_edges_from((module, imported) for imported in _imports(path, module))
    return graph


def _layer(module: str) -> int:
    best = None
    for level, roots in enumerate(LAYERS):
        for root in roots:
            if (module == root or module.startswith(root + ".")) and (best is None or len(root) > best[1]):
                best = (level, len(root))
    assert best is not None, f"{module} belongs to no layer: add it to LAYERS"
    return best[0]


def test_no_module_imports_from_a_layer_above_its_own() -> None:
    graph = _graph()
    upward = sorted(f"{a} -> {b}" for a, b in graph.edges if _layer(b) > _layer(a))
    assert not upward, "upward imports:\n" + "\n".join(upward)


def test_no_modules_import_each_other_in_a_loop() -> None:
    graph = _graph()
    # A package's __init__ importing its own submodules is how a package exposes them, not a loop.
    graph.remove_edges_from([(a, b) for a, b in graph.edges if b.startswith(a + ".")])
    loops = [" -> ".join([*cycle, cycle[0]]) for cycle in nx.simple_cycles(graph)]
    assert not loops, "import loops:\n" + "\n".join(sorted(loops)[:20])


def test_every_layer_package_says_what_it_may_import() -> None:
    for roots in LAYERS:
        for root in roots:
            path = PACKAGE.parent / Path(*root.split(".")) / "__init__.py"
            if path.exists():
                docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
                assert docstring and "import" in docstring.lower(), (
                    f"{path} needs a docstring saying what it may import"
                )


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check itself works: a lower module importing a higher one is found."""
    lower = tmp_path / "lower.py"
    lower.write_text("def f():\n    from mtgkb.cli.output import emit\n", encoding="utf-8")
    imported = {
        n.module
        for n in ast.walk(ast.parse(lower.read_text(encoding="utf-8")))
        if isinstance(n, ast.ImportFrom)
    }
    assert any(_layer(name) > _layer("mtgkb.kb.store") for name in imported)

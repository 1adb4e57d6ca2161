"""Issue 29: the house's shape is kept by a test, not by memory.

No source file (Python or template) over 600 lines, and no two modules that import each other, counting the
imports made inside functions (a lazy import hides a circle, it does not cut it). Imports under
``if TYPE_CHECKING:`` are left out: they never run.
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "citeproof"
MAX_LINES = 600


def _module(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module(p): p for p in SRC.rglob("*.py")}


def _owner(name: str) -> str | None:
    """The module of ours that ``import name`` loads (``citeproof.sources.pdf.X`` -> ``citeproof.sources.pdf``)."""
    while name and name not in MODULES:
        name = name.rpartition(".")[0]
    return name or None


def _imports(path: Path) -> set[str]:
    out: set[str] = set()

    def visit(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.ImportFrom) and child.module and child.level == 0:
                for alias in child.names:
                    full = f"{child.module}.{alias.name}"
                    owner = _owner(full if full in MODULES else child.module)
                    if owner:
                        out.add(owner)
            elif isinstance(child, ast.Import):
                out.update(o for o in (_owner(a.name) for a in child.names) if o)
            visit(child)

    visit(ast.parse(path.read_text(encoding="utf-8")))
    return out


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_source_file_is_over_600_lines():
    long = {str(p.relative_to(SRC)): n for p in sorted(SRC.rglob("*"))
            if p.suffix in (".py", ".j2", ".js", ".css") and (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long, f"split these files (at most {MAX_LINES} lines each): {long}"


def test_no_two_modules_import_each_other_even_lazily():
    graph = {m: _imports(p) - {m} for m, p in MODULES.items()}
    assert not _circles(graph)


def test_the_circle_finder_finds_a_circle():
    """The check above can fail: a lazy import back up is a circle."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_reports_and_reading_order_do_not_reach_up_into_the_pipeline():
    """The summary and the reading order live below the pipeline (``citeproof.triage``): writers import it."""
    for name in ("citeproof.reports.json", "citeproof.reports.html", "citeproof.reports.markdown", "citeproof.triage"):
        assert "citeproof.pipeline" not in _imports(MODULES[name]), name

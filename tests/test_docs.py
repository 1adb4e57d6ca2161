"""The README and docs/ stay true (issue 29 part 4): every ``citeproof ...`` command they show parses (its
subcommand exists, ``--help`` of it works, every option shown is one of its options), the README fits on a
few screens, the pages it links exist, and docs/inputs.md's tables are the reader and source registries.

``python tests/test_docs.py --write`` rewrites the registry tables of docs/inputs.md.
"""

from __future__ import annotations

import functools
import re
import shlex
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_MAX_LINES = 250


def _commands(text: str) -> list[str]:
    """``citeproof ...`` commands shown in ``text``: lines of fenced code blocks, and inline code spans."""
    out: list[str] = []
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced and re.match(r"\s*(?:\$\s*)?citeproof\s", line):
            out.append(line.strip().lstrip("$").strip())
    for m in re.finditer(r"`(citeproof\s[^`]+)`", text):
        out.append(" ".join(m.group(1).split()))
    return out


def _tokens(command: str) -> list[str]:
    """The words of a shown command: comments and what follows a pipe or redirection cut; ``[--opt X]`` opened."""
    command = re.split(r"\s#\s|\s#$|\s\|\s|\s&&\s|\s;\s|\s>\s", command)[0]
    command = command.replace("[", " ").replace("]", " ").replace("|", " ")
    try:
        words = shlex.split(command)
    except ValueError:  # an unbalanced quote in prose: split on spaces
        words = command.split()
    return [w for w in words if w not in ("...", "…")]


@functools.lru_cache(maxsize=1)
def _cli():
    import typer

    from citeproof.cli import app

    return typer.main.get_command(app)


def _options(cmd) -> set[str]:
    opts = {"--help"}
    for p in cmd.params:
        opts.update(getattr(p, "opts", ()))
        opts.update(getattr(p, "secondary_opts", ()))
    return opts


def _resolve(words: list[str]):
    """``(path, command, option words)`` of a shown command: subcommands followed down from the group."""
    group = _cli()
    cmd, path, opts = group, [], []
    for w in words[1:]:
        if w.startswith("-") and len(w) > 1:
            opts.append((cmd, w))
        elif hasattr(cmd, "commands") and w in cmd.commands:
            cmd = cmd.commands[w]
            path.append(w)
    return path, cmd, opts


def _known(cmd, word: str) -> bool:
    name = word.split("=", 1)[0]
    if re.fullmatch(r"-v+|--verbose", name):
        return True  # citeproof's -v is accepted after the subcommand too (cli/_common.py moves it before)
    opts = _options(cmd)
    if name in opts:
        return True
    return bool(re.fullmatch(r"-([a-zA-Z])\1+", name)) and f"-{name[1]}" in opts  # -vv: a counted -v


SHOWN = [(page.relative_to(ROOT).as_posix(), c) for page in PAGES for c in _commands(page.read_text(encoding="utf-8"))]


def test_the_pages_show_commands():
    """The check below has something to check: the README and docs show many commands, of most subcommands."""
    assert len(SHOWN) > 40
    paths = {tuple(_resolve(_tokens(c))[0][:1]) for _p, c in SHOWN}
    assert {("check",), ("gate",), ("audit",), ("batch",), ("serve",), ("eval",), ("locate",), ("verify",)} <= paths


@pytest.mark.parametrize("page,command", SHOWN, ids=[f"{p}:{c[:60]}" for p, c in SHOWN])
def test_every_command_shown_parses(page, command):
    """A shown command names real subcommands and only options they have."""
    path, _cmd, opts = _resolve(_tokens(command))
    unknown = [w for c, w in opts if not _known(c, w)]
    assert not unknown, f"{page}: `{command}`: no option {unknown} on `citeproof {' '.join(path)}`"


SUBCOMMANDS = sorted({tuple(_resolve(_tokens(c))[0]) for _p, c in SHOWN})


@pytest.mark.parametrize("path", SUBCOMMANDS, ids=[" ".join(p) or "citeproof" for p in SUBCOMMANDS])
def test_help_of_every_subcommand_shown(path):
    """``citeproof <subcommand> --help`` exits 0 and shows its usage, for each subcommand the pages show."""
    from typer.testing import CliRunner

    from citeproof.cli import app

    r = CliRunner().invoke(app, [*path, "--help"])
    assert 0 == r.exit_code and "Usage:" in r.output, f"`citeproof {' '.join(path)} --help` failed: {r.output}"


def test_the_readme_fits_and_its_links_resolve():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= README_MAX_LINES
    assert text.index("make demo") < 600 and text.index("make test") < 600  # the two commands at the top
    for page in PAGES:
        for target in re.findall(r"\]\(((?!https?:|#|mailto:)[^)#\s]+)", page.read_text(encoding="utf-8")):
            assert (page.parent / target).exists(), f"{page.name}: link to {target} leads nowhere"
    reached, todo = set(), [ROOT / "README.md"]  # every docs/ page is reached from the README, through links
    while todo:
        page = todo.pop()
        for target in re.findall(r"\]\(((?!https?:|#|mailto:)[^)#\s]+\.md)", page.read_text(encoding="utf-8")):
            nxt = (page.parent / target).resolve()
            if nxt.exists() and nxt not in reached:
                reached.add(nxt)
                todo.append(nxt)
    orphans = [p.name for p in PAGES[1:] if p.resolve() not in reached]
    assert not orphans, f"docs/ pages no link from the README leads to: {orphans}"


def readers_table() -> str:
    """The reader registry as docs/inputs.md shows it."""
    from citeproof.documents import READER_LIST

    own = {"always": "yes", "front matter": "when the front matter (or Manubot files) names one", "no": "no"}
    rows = ["| Citing document | Suffixes | Own bibliography | A given `--bib` |", "| --- | --- | --- | --- |"]
    for e in READER_LIST:
        rows.append(f"| {e.name} | {', '.join(f'`{s}`' for s in e.suffixes)} | {own[e.own_bibliography]} | "
                    f"{'enriches the printed entries' if e.enriched_by_bib else 'replaces it'} |")
    return "\n".join(rows)


def sources_table() -> str:
    """The source registry as docs/inputs.md shows it."""
    from citeproof.sources import SOURCE_PARSERS

    rows = ["| Source | Suffixes | Media type |", "| --- | --- | --- |"]
    rows += [f"| {p.name} | {', '.join(f'`{s}`' for s in p.suffixes)} | `{p.media_type}` |" for p in SOURCE_PARSERS.values()]
    return "\n".join(rows)


def _with_tables(text: str) -> str:
    for name, table in (("readers", readers_table()), ("sources", sources_table())):
        text = re.sub(rf"(<!-- {name} -->\n).*?(<!-- /{name} -->)", lambda m: m.group(1) + table + "\n" + m.group(2), text, flags=re.S)
    return text


def test_the_inputs_page_tables_are_the_registries():
    """docs/inputs.md lists exactly the registered readers and source parsers (`python tests/test_docs.py --write`)."""
    page = ROOT / "docs" / "inputs.md"
    text = page.read_text(encoding="utf-8")
    assert "<!-- readers -->" in text and "<!-- sources -->" in text
    assert _with_tables(text) == text, "docs/inputs.md's tables differ from the registries: run python tests/test_docs.py --write"


if __name__ == "__main__" and "--write" in sys.argv:
    page = ROOT / "docs" / "inputs.md"
    page.write_text(_with_tables(page.read_text(encoding="utf-8")), encoding="utf-8")
    print(f"wrote {page}")

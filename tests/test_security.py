"""Issue 18, security holes: a citekey, a LaTeX include or a bundle's .bib never reads a file it should not."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from citeproof.model import Reference
from citeproof.pipeline import CheckOptions, check
from citeproof.sources import SourceResolver
from citeproof.sources.cache import Cache

SECRET = "The launch code is 271828 and the moon is made of green cheese."


@pytest.fixture()
def layout(tmp_path):
    """``srcs/`` (one harmless source), ``outside/secret.md`` beside it, a job-like ``jobs/<id>/input/draft.md``."""
    (tmp_path / "srcs").mkdir()
    (tmp_path / "srcs" / "other.md").write_text("# Other\n\nNothing to see.\n", "utf-8")
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "secret.md").write_text(f"# Secret\n\n{SECRET}\n", "utf-8")
    other_job = tmp_path / "jobs" / ("a" * 32) / "input"
    other_job.mkdir(parents=True)
    (other_job / "draft.md").write_text(f"# Someone else's draft\n\n{SECRET}\n", "utf-8")
    return tmp_path


@pytest.mark.parametrize("key", ["../outside/secret", "{root}/outside/secret", "{root}/jobs/" + "a" * 32 + "/input/draft", "..", "srcs/../../outside/secret"])
def test_citekey_is_not_a_path(layout, key):
    """``<sources>/<citekey>.md`` is looked up only when the citekey is a plain name inside the folder."""
    key = key.format(root=layout)
    resolver = SourceResolver([], [layout / "srcs"], Cache(None))
    path, how, tried = resolver.find(Reference(citekey=key))
    assert (None, "") == (path, how)
    src = resolver.resolve(key, Reference(citekey=key))
    assert [] == src.passages and src.error


def test_plain_citekey_still_found(layout):
    resolver = SourceResolver([], [layout / "srcs"], Cache(None))
    path, how, _ = resolver.find(Reference(citekey="other"))
    assert (layout / "srcs" / "other.md", "--sources other.md (citekey)") == (path, how)


def test_citekey_path_does_not_reach_the_report(layout):
    """A draft citing ``[@{/abs/secret}]`` and ``[@{../outside/secret}]`` gets no text of those files."""
    draft = layout / "draft.md"
    draft.write_text(f"The moon is made of green cheese [@{{{layout}/outside/secret}}].\n\nThe launch code is 271828 [@{{../outside/secret}}].\n", "utf-8")
    report = check(draft, [], CheckOptions(source_dirs=[layout / "srcs"], use_cache=False, tiers=["lexical"]))
    assert 2 == len(report.findings)
    for f in report.findings:
        assert "unverifiable" == f.verdict.value and f.evidence is None
        assert f.source is None or not f.source.passages

"""Project settings from ``.citeproof.toml`` or ``[tool.citeproof]`` in ``pyproject.toml``.

A project keeps its bibliographies, source folders, tiers and gate in one
place, so the command line (and a pre-commit hook or CI step) can be just
``citeproof check draft.md``. Example (either file; in ``pyproject.toml``
the table is ``[tool.citeproof]``)::

    bibliography = ["refs.bib", "more.json"]   # or one string
    sources = ["pdfs/"]
    tiers = ["lexical", "dense"]
    fail-on = ["unsupported", "contradicted"]  # or "unsupported,contradicted"
    format = "md,json,sarif"
    out = "citeproof-out"
    cache-dir = ".cache/citeproof"
    online = false
    email = "me@example.org"
    [llm]                                      # [tool.citeproof.llm]
    endpoint = "http://127.0.0.1:8080/v1"
    model = "local-model"

Paths are relative to the folder of the file that names them. Options given
on the command line win over the file. Keys this version does not use
(``online``, ``email``, ``llm`` and any other) are kept in
:attr:`Config.extra` and passed through to the run's options, so a config
written for a later version still loads; but an unknown key that is close to
a known one (``bibliograpy``) is a typo, refused with the file, the line and
the key meant. ``-`` and ``_`` in key names are the same.
"""

from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from citeproof.errors import InputError

__all__ = ["Config", "CONFIG_NAMES", "apply_settings", "check_bibliographies", "find_config", "load_config", "settings_for"]

KNOWN_KEYS = ("bibliography", "bibliographies", "bib", "sources", "tiers", "fail-on", "format", "out", "cache-dir",
              "online", "offline", "email", "ocr", "collection", "limit", "llm")
"""Top-level keys this version reads (``-`` spelling); an unknown key close to one of them is a typo (:func:`load_config`)."""

CONFIG_NAMES = (".citeproof.toml", "pyproject.toml")
"""Files looked for, in this order, in each folder from the document's up to the root."""


@dataclass
class Config:
    """Settings read from a config file (every field empty when there is none).

    Attributes:
        path: the file read, or None.
        bibliographies: bibliography files (absolute, or relative to the cwd when no file).
        sources: source folders.
        tiers: tier names, or None for every available tier.
        fail_on: verdict names for ``--fail-on`` ('' for none).
        format: report formats, comma-separated ('' for the command's default).
        out: report folder, or None.
        cache_dir: cache folder, or None.
        extra: every other key, passed through (``online``, ``email``, ``llm``...).
    """

    path: Path | None = None
    bibliographies: list[Path] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)
    tiers: list[str] | None = None
    fail_on: str = ""
    format: str = ""
    out: Path | None = None
    cache_dir: Path | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def online(self) -> bool:
        """The ``online`` setting (False when absent)."""
        return bool(self.extra.get("online", False))

    @property
    def llm(self) -> dict[str, Any]:
        """The ``llm`` table (``endpoint``, ``model``...), {} when absent."""
        value = self.extra.get("llm", {})
        return value if isinstance(value, dict) else {}


def find_config(start: Path) -> Path | None:
    """The nearest config file at or above ``start``.

    Args:
        start: a file or folder (a document's path).

    Returns:
        The first ``.citeproof.toml``, or ``pyproject.toml`` holding a
        ``[tool.citeproof]`` table, found walking up from ``start``'s folder;
        None when there is none. A folder holding ``.git`` ends the walk
        (a config above the repository is not the project's).
    """
    folder = Path(start).resolve()
    if not folder.is_dir():
        folder = folder.parent
    for d in (folder, *folder.parents):
        for name in CONFIG_NAMES:
            p = d / name
            if not p.is_file():
                continue
            if name == ".citeproof.toml":
                return p
            try:
                if "citeproof" in tomllib.loads(p.read_text(encoding="utf-8")).get("tool", {}):
                    return p
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
                continue  # someone else's broken pyproject.toml is not ours to report
        if (d / ".git").exists():
            return None
    return None


def _strings(path: Path, key: str, value: Any) -> list[str]:
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()] if key in ("fail-on", "format", "tiers") else [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise InputError(f"{path}: '{key}' must be a string or a list of strings, not {type(value).__name__}; fix the citeproof settings")


def load_config(path: Path) -> Config:
    """Read one config file.

    Args:
        path: a ``.citeproof.toml`` (settings at the top level) or a
            ``pyproject.toml`` (settings under ``[tool.citeproof]``; an
            absent table gives an empty :class:`Config`).

    Returns:
        The :class:`Config`, paths resolved against the file's folder.

    Raises:
        InputError: the file cannot be read, is not TOML (line and column
            given), a known key has the wrong type, or a key is a typo of a
            known one (the line and the closest key given; difflib's ratio
            0.75 or more and at most 2 characters longer or shorter).
    """
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise InputError(f"{path}: config file not found; check the --config path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read the config file ({exc}); it must be UTF-8 TOML") from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path}: not valid TOML ({exc}); fix the citeproof settings") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("citeproof", {})
        if not isinstance(data, dict):
            raise InputError(f"{path}: [tool.citeproof] must be a table")
    base = path.parent
    cfg = Config(path=path)
    for raw_key, value in data.items():
        key = raw_key.replace("_", "-")
        if key not in KNOWN_KEYS:
            # a typo is close and about as long; a longer name that contains a known one (sources-dir) may be a later version's
            meant = [k for k in difflib.get_close_matches(key.lower(), KNOWN_KEYS, n=1, cutoff=0.75) if abs(len(k) - len(key)) <= 2]
            if meant:
                raise InputError(f"{path}:{_key_line(text, raw_key, path.name == 'pyproject.toml')}: unknown key '{raw_key}'; did you mean "
                                 f"'{meant[0]}'? (citeproof reads {', '.join(KNOWN_KEYS)})")
        if key in ("bibliography", "bibliographies", "bib"):
            cfg.bibliographies += [base / v for v in _strings(path, key, value)]
        elif key == "sources":
            cfg.sources += [base / v for v in _strings(path, key, value)]
        elif key == "tiers":
            cfg.tiers = _strings(path, key, value)
        elif key == "fail-on":
            cfg.fail_on = ",".join(_strings(path, key, value))
        elif key == "format":
            cfg.format = ",".join(_strings(path, key, value))
        elif key in ("out", "cache-dir"):
            if not isinstance(value, str):
                raise InputError(f"{path}: '{key}' must be a folder name (a string); fix the citeproof settings")
            setattr(cfg, key.replace("-", "_"), base / value)
        elif key == "online" and not isinstance(value, bool):
            raise InputError(f"{path}: 'online' must be true or false; fix the citeproof settings")
        elif key == "llm" and not isinstance(value, dict):
            raise InputError(f"{path}: 'llm' must be a table ([llm] with endpoint = \"...\"); fix the citeproof settings")
        else:
            cfg.extra[key] = value
    return cfg


def _key_line(text: str, key: str, in_pyproject: bool) -> int:
    """Line (from 1) where ``key`` is set (``key =`` or a ``[key]`` table) in a config file's text; 0 when not found.

    In a ``pyproject.toml`` the search starts at the ``[tool.citeproof]`` table.
    """
    start = 0
    if in_pyproject:
        m = re.search(r"^\s*\[\s*tool\.citeproof\s*\]", text, re.M)
        start = m.start() if m else 0
    k = re.escape(key)
    m = re.compile(rf"^\s*(?:\[\s*(?:tool\.citeproof\.)?)?[\"']?{k}[\"']?\s*(?:=|\])", re.M).search(text, start)
    return text.count("\n", 0, m.start()) + 1 if m else 0


def check_bibliographies(cfg: Config) -> None:
    """Refuse settings whose bibliography files do not exist, naming the config file and line.

    Called when the settings' bibliographies are used (no ``--bib``): the
    bibliography reader's own message would send the user to ``--bib``.

    Raises:
        InputError: a named bibliography (not a Zotero folder) does not exist.
    """
    for p in cfg.bibliographies:
        if not p.exists() and cfg.path is not None:
            text = cfg.path.read_text(encoding="utf-8", errors="replace")
            in_py = cfg.path.name == "pyproject.toml"
            line = next((n for k in ("bibliography", "bibliographies", "bib") if (n := _key_line(text, k, in_py))), 0)
            raise InputError(f"{cfg.path}:{line}: bibliography {p.name} not found (looked at {p}); fix the path in {cfg.path.name} "
                             "(relative to its folder) or give --bib")


def settings_for(document: Path, config: Path | None = None) -> Config:
    """The settings that apply to ``document``.

    Args:
        document: the citing document.
        config: a config file named on the command line (``--config``), or None.

    Returns:
        ``config`` loaded, else the nearest config file's (:func:`find_config`),
        else an empty :class:`Config`.

    Raises:
        InputError: the file cannot be read or holds a bad value (see :func:`load_config`).
    """
    path = config or find_config(document)
    return load_config(path) if path else Config()


def apply_settings(options: Any, cfg: Config) -> None:
    """Hand the settings the command line has no option for (``online``, ``email``, ``llm``...) to a run's options.

    A setting lands on the attribute of the same name (``-`` read as ``_``)
    when ``options`` has one and it is still empty (the command line wins),
    else in ``options.settings`` (a dict), unchanged.

    Args:
        options: a :class:`citeproof.pipeline.CheckOptions` (changed in place).
        cfg: the settings.
    """
    for key, value in cfg.extra.items():
        name = key.replace("-", "_")
        current = getattr(options, name, None)
        if name != "settings" and hasattr(options, name) and isinstance(current, (bool, str, int, float, list, tuple)):
            if not current:  # a plain option still unset on the command line (an object such as ``llm`` stays in settings)
                setattr(options, name, value)
        else:
            options.settings[key] = value

"""Audio and video files cited as sources: not read; the finding says to supply the transcript.

citeproof reads what was said in a talk, podcast or video from its subtitle
or transcript file (:mod:`citeproof.sources.transcript`). A recording itself
would need a speech recognizer that runs offline with its weights installed
from a package registry; none is a citeproof dependency (issue 26, part 6;
see ``docs/inputs.md``), so a recording is one ``unverifiable`` finding whose
reason says which transcript to supply and where.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["RECORDING_TYPES", "recording_error"]

RECORDING_TYPES: dict[str, str] = {
    ".mp3": "an audio recording", ".m4a": "an audio recording", ".wav": "an audio recording", ".flac": "an audio recording",
    ".ogg": "an audio recording", ".oga": "an audio recording", ".opus": "an audio recording", ".aac": "an audio recording",
    ".wma": "an audio recording", ".mp4": "a video", ".m4v": "a video", ".mov": "a video", ".mkv": "a video",
    ".webm": "a video", ".avi": "a video", ".wmv": "a video",
}
"""Suffix -> what the recording is."""


def recording_error(path: Path) -> str:
    """The reason a recording cannot be checked, with what to do; '' when ``path`` is not a recording (by suffix)."""
    what = RECORDING_TYPES.get(path.suffix.lower())
    if not what:
        return ""
    return (f"{what} ({path.suffix}): citeproof reads no speech (it has no offline speech recognizer); supply the "
            f"recording's subtitles or transcript ({path.stem}.srt, {path.stem}.vtt, or a .txt with timestamps such as "
            f"'[12:34] ...') in the bibliography's file field or a --sources folder")

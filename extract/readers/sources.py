"""Turn the paths a user gave into files, each with its format.

>>> format_of("papers.JSONL")
'jsonl'
"""

from __future__ import annotations

import glob
from collections.abc import Iterable
from pathlib import Path

from ...errors import InputError

__all__ = ["FORMATS", "expand_paths", "format_of", "read_file_text"]

#: Format name -> file extensions that select it.
FORMATS: dict[str, tuple[str, ...]] = {
    "text": (".txt", ".md"),
    "json": (".json",),
    "jsonl": (".jsonl", ".ndjson"),
    "csv": (".csv",),
    "tsv": (".tsv", ".tab"),
    "bibtex": (".bib", ".bibtex"),
}


def _formats_help() -> str:
    return "; ".join(f"{name} ({', '.join(exts)})" for name, exts in FORMATS.items())


def format_of(path: str | Path, given: str | None = None) -> str:
    """The format of ``path``: ``given`` when set, else the one its extension names."""
    if given is not None:
        if given not in FORMATS:
            raise InputError(f"unknown format {given!r}; choose one of {', '.join(FORMATS)}")
        return given
    suffix = Path(path).suffix.lower()
    for name, extensions in FORMATS.items():
        if suffix in extensions:
            return name
    raise InputError(
        f"{path}: cannot tell the format from the extension {suffix or '(none)'!r}; "
        f"known formats: {_formats_help()}; pass --format to choose one"
    )


def expand_paths(paths: Iterable[str | Path]) -> list[str]:
    """Expand globs, keep the given order, drop repeats; a path matching nothing is an error."""
    files: list[str] = []
    seen: set[Path] = set()
    for given in paths:
        text = str(given)
        if glob.has_magic(text):
            matches = sorted(m for m in glob.glob(text, recursive=True) if Path(m).is_file())
            if not matches:
                raise InputError(f"{text}: no file matches this pattern; check the path")
        else:
            if not Path(text).exists():
                raise InputError(f"{text}: no such file; check the path")
            if Path(text).is_dir():
                raise InputError(
                    f"{text}: is a directory; give files or a pattern such as '{text}/*.txt'"
                )
            matches = [text]
        for match in matches:
            if Path(match).resolve() not in seen:
                seen.add(Path(match).resolve())
                files.append(match)
    if not files:
        raise InputError("no input files given; pass at least one path or pattern")
    return files


#: byte-order marks of the encodings read besides UTF-8 (UTF-32 first: its LE mark
#: begins with UTF-16's)
_BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32"),
    (b"\x00\x00\xfe\xff", "utf-32"),
    (b"\xff\xfe", "utf-16"),
    (b"\xfe\xff", "utf-16"),
)


def read_file_text(path: str) -> str:
    """The file's text, decoded as UTF-8, or as UTF-16/32 when a byte-order mark says so.

    Excel and Windows tools save "Unicode text" as UTF-16 with a BOM, which is
    unambiguous; a file without a BOM that is not UTF-8 (Latin-1, say) is refused
    with the byte where it fails, since guessing its encoding would garble names.
    """
    try:
        data = Path(path).read_bytes()
    except OSError as e:
        raise InputError(
            f"{path}: cannot be read ({e.strerror}); check the path and permissions"
        ) from e
    encoding = "utf-8-sig"
    for bom, name in _BOMS:
        if data.startswith(bom):
            encoding = name
            break
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as e:
        if encoding != "utf-8-sig":
            raise InputError(
                f"{path}: starts like {encoding.upper()} text but breaks at byte {e.start}; "
                "re-save it as UTF-8"
            ) from e
        raise InputError(
            f"{path}: is not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start}); "
            "re-save it as UTF-8"
        ) from e

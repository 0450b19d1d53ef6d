"""What every offline page of paperkg is made of: its templates, inlined assets, a whole write.

The paper view (:mod:`.html`) and the concept map (:mod:`.html_map`) are single
files that open without a network: vis-network (shipped inside the installed
pyvis) and the pages' own CSS and JavaScript are read from disk here and inlined,
after a check that none of them could close its ``<script>`` or ``<style>``
early. A page is written whole or not at all, so a failed or killed write never
leaves half a page where the last one was.
"""

from __future__ import annotations

import importlib.util
import secrets
from collections.abc import Iterable, Iterator
from pathlib import Path

import jinja2
from markupsafe import Markup

from ..atomic import atomic_open
from ..errors import ExportError
from .script_json import with_script_json

__all__ = ["ASSETS", "VIS_DIR", "inline_asset", "page_templates", "render_page", "write_page"]

#: the pages' templates, CSS and JavaScript
ASSETS = Path(__file__).parent / "assets"
# found without importing pyvis, which imports IPython (0.2 s a build; the concept
# map of a large corpus needs only these files)
VIS_DIR = (
    Path(importlib.util.find_spec("pyvis").submodule_search_locations[0])
    / "templates"
    / "lib"
    / "vis-9.1.2"
)


def page_templates() -> jinja2.Environment:
    """The page templates in :data:`ASSETS`, every value escaped, an unknown name an error."""
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(ASSETS)),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
    )


def inline_asset(path: Path) -> Markup:
    """The text of a JS/CSS file, checked to be safe inside ``<script>``/``<style>``."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise ExportError(
            f"cannot read {path} needed for the HTML view ({e}); reinstall paperkg and pyvis==0.3.2"
        ) from e
    lowered = text.lower()
    if "</script" in lowered or "</style" in lowered or "<!--" in lowered:
        raise ExportError(f"{path} cannot be inlined safely (contains a closing tag or '<!--')")
    return Markup(text)


def render_page(template: str, data: object, **context) -> Iterator[str]:
    """The page ``template`` of :data:`ASSETS` piece by piece, with ``data`` in it as
    script JSON (:func:`~.script_json.with_script_json`) and vis-network and the name
    index inlined: the map of 100,000 papers is 25 MB, and the whole page as one
    string, then as bytes, sat on top of the graph."""
    mark = f"paperkg-data-{secrets.token_hex(16)}"  # where the data goes: nothing else has it
    pieces = (
        page_templates()
        .get_template(template)
        .generate(
            data_json=Markup(mark),
            vis_js=inline_asset(VIS_DIR / "vis-network.min.js"),
            vis_css=inline_asset(VIS_DIR / "vis-network.css"),
            name_index_js=inline_asset(ASSETS / "name_index.js"),
            **context,
        )
    )
    return with_script_json(pieces, mark, data)


def write_page(path: Path, text: str | Iterable[str]) -> None:
    """Write ``text`` (a string, or its pieces in order) to ``path``, whole or not at all."""
    try:
        with atomic_open(path) as f:
            if isinstance(text, str):
                f.write(text)
            else:
                f.writelines(text)
    except OSError as e:
        raise ExportError(
            f"cannot write {path} ({e}); check the folder exists and is writable"
        ) from e

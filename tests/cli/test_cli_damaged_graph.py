"""A damaged or hand-edited graph.json gets one line naming the file and the record, in every
command that reads one, never a traceback."""

import json

import pytest
from typer.testing import CliRunner

from paperkg.cli import app

DAMAGED = {
    "nodes not objects": ({"nodes": [1, 2], "edges": []}, "node #1 is not an object"),
    "nodes null": ({"nodes": None, "edges": None}, "'nodes' is NoneType, not a list"),
    "id not text": ({"nodes": [{"id": 7, "label": "Paper"}], "edges": []}, "node #1 has id 7, not text"),
    "node without a label": (
        {"nodes": [{"id": "paper:1"}], "edges": []},
        "node #1 ('paper:1') has no label",
    ),
    "edge to no node": (
        {"nodes": [{"id": "paper:1", "label": "Paper"}],
         "edges": [{"source": "paper:1", "target": "Method:x", "type": "USES"}]},
        "edge #1 has target 'Method:x', which is not a node",
    ),
    "year not a number": (
        {"nodes": [{"id": "paper:1", "label": "Paper", "year": "soon"}], "edges": []},
        "node #1 ('paper:1'): year is 'soon', not a whole number",
    ),
    "count not a number": (
        {"nodes": [{"id": "Method:x", "label": "Method", "paper_count": "many"}], "edges": []},
        "paper_count is 'many', not a count",
    ),
    "weight not a number": (
        {"nodes": [{"id": "paper:1", "label": "Paper"}, {"id": "Method:x", "label": "Method"}],
         "edges": [{"source": "paper:1", "target": "Method:x", "type": "USES", "weight": "w"}]},
        "edge #1 ('paper:1' -> 'Method:x'): weight is 'w', not a number",
    ),
}  # fmt: skip

COMMANDS = [["analyze"], ["view"], ["push", "--uri", "bolt://127.0.0.1:9"]]


@pytest.mark.parametrize("case", DAMAGED)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: c[0])
def test_a_damaged_graph_json_is_one_line_naming_the_record(tmp_path, case, command):
    data, message = DAMAGED[case]
    (tmp_path / "graph.json").write_text(json.dumps(data))
    result = CliRunner().invoke(app, [command[0], str(tmp_path), *command[1:]])
    assert result.exit_code == 1
    assert "Traceback" not in result.output and result.exception.__class__ is SystemExit
    [line] = [line for line in result.output.splitlines() if line.strip()]
    assert str(tmp_path / "graph.json") in line and message in line


@pytest.mark.parametrize("content", [b"", b'{"nodes": [', b"\xff\xfe\x00garbage"])
def test_a_graph_json_that_is_not_json_is_one_line(tmp_path, content):
    (tmp_path / "graph.json").write_bytes(content)
    result = CliRunner().invoke(app, ["analyze", str(tmp_path)])
    assert result.exit_code == 1 and "not a paperkg graph.json" in result.output

"""Reading every input format into Paper records, and what happens to bad records."""

import json
import re
from pathlib import Path

import pytest

from paperkg.errors import InputError
from paperkg.extract.readers import read_inputs, skip_line

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "readers"


def read(*names, **kwargs):
    return read_inputs([str(FIXTURES / name) for name in names], **kwargs)


def by_id(result):
    return {paper.id: paper for paper in result.papers}


# --- plain text --------------------------------------------------------------


def test_text_heading_is_not_a_paper_and_gives_venue_and_year():
    result = read("with_header.txt")

    assert len(result.papers) == 2
    assert {(p.venue, p.year) for p in result.papers} == {("NeurIPS", 2023)}
    assert "NeurIPS 2023 Accepted Papers" in result.notes[0]
    assert result.papers[0].text.startswith("We introduce TinyNet")


def test_text_records_count_abstracts_not_the_heading():
    result = read("with_header.txt")

    assert [p.source.rsplit("#", 1)[1] for p in result.papers] == ["1", "2"]


def test_text_without_heading_keeps_a_short_first_abstract():
    result = read("no_header.txt")

    assert [p.text for p in result.papers][0] == "We propose ShortNet. It is short."
    assert len(result.papers) == 2
    assert all(p.venue is None and p.year is None for p in result.papers)
    assert result.notes == []


def test_markdown_heading_without_venue_is_dropped_but_gives_nothing():
    result = read("reading_list.md")

    assert len(result.papers) == 1
    assert result.papers[0].venue is None and result.papers[0].year is None
    assert "is not a paper" in result.notes[0]


def test_text_keeps_original_abstract_and_cleans_text_for_nlp():
    paper = read("with_header.txt").papers[1]

    assert r"\textbf{RelayGNN}" in paper.abstract
    assert "We propose RelayGNN, which" in paper.text
    assert paper.code_urls == ["https://github.com/example/relaygnn"]
    assert "http" not in paper.text


# --- tabular and JSON -------------------------------------------------------------


@pytest.mark.parametrize(
    "name, paper_id, expected",
    [
        (
            "papers.json",
            "p1",
            dict(title="Sparse Attention", year=2021, venue="ACL",
                 authors=["Ada Lovelace", "Alan Turing"], keywords=["attention", "transformers"]),
        ),
        (
            "papers.json",
            "p2",  # summary as abstract, a date as year, authors separated by ";"
            dict(title="Dense Retrieval", year=2020, venue=None,
                 authors=["Grace Hopper", "Edsger Dijkstra"],
                 keywords=["retrieval", "question answering"]),
        ),
        (
            "wrapped.json",
            "10.1234/abc.5",  # the DOI, normalised, is the id
            dict(title="Speech Units", doi="10.1234/abc.5"),
        ),
        ("papers.jsonl", "j1", dict(title="First", year=2019)),
        (
            "papers.csv",
            "c1",
            dict(title="Point Clouds", year=2017, venue="NeurIPS",
                 authors=["Charles Qi", "Li Yi", "Hao Su"], keywords=["point clouds", "3D"]),
        ),
        (
            "papers.csv",
            "c2",
            dict(title="Speech, Fast", year=2023, authors=["Ann Lee", "Bo Chen"],
                 keywords=["speech", "ASR"]),
        ),
        ("papers.tsv", "t2", dict(title="Depth", year=2022)),
        (
            "papers.bib",
            "10.5555/3295222.3295349",
            dict(title="Attention Is All You Need: the Transformer", year=2017,
                 venue="Advances in Neural Information Processing Systems",
                 authors=["Ashish Vaswani", "Noam Shazeer"],
                 keywords=["attention", "machine translation"]),
        ),
        (
            "papers.bib",
            "devlin2019",  # no DOI: the entry key is the id
            dict(title="BERT: Pre-training of Deep Bidirectional Transformers", year=2019,
                 venue="NAACL", authors=["Jacob Devlin", "Ming-Wei Chang"]),
        ),
        (
            "latex.bib",
            "muller2020",  # BibTeX values are LaTeX
            dict(title="On ℓp Regression for Möbius Data", venue="Journal of ML Research",
                 authors=["Jörg Müller", "Andrew Ng"], year=2020),
        ),
        ("semicolon.csv", "s1", dict(title="Semi", year=2024)),
    ],
)  # fmt: skip
def test_record_fields(name, paper_id, expected):
    paper = by_id(read(name))[paper_id]

    assert {field: getattr(paper, field) for field in expected} == expected


@pytest.mark.parametrize(
    "name, note",
    [
        (
            "papers.csv",
            "papers.csv: columns used: id=Paper_ID, title=Title, abstract=Abstract, "
            "year=Publication Date, venue=Venue, authors=Authors, keywords=Keywords",
        ),
        (
            "papers.tsv",
            "papers.tsv: columns used: id=id, title=title, abstract=abstract, year=year",
        ),
        (
            "papers.jsonl",
            "papers.jsonl: keys used: id=id, title=title, abstract=abstract, year=year",
        ),
    ],
)
def test_notes_say_which_columns_were_used(name, note):
    assert any(n.endswith(note) for n in read(name).notes)


def test_format_option_overrides_the_extension(tmp_path):
    path = tmp_path / "export.dat"
    path.write_text('[{"abstract": "We propose GraphSAGE for inductive node embedding."}]')

    result = read_inputs([path], format="json")

    assert result.papers[0].text == "We propose GraphSAGE for inductive node embedding."


# --- bad records: one line naming file and record; good records still read -----------


@pytest.mark.parametrize(
    "name, record, reason",
    [
        ("papers.jsonl", 3, "invalid JSON (Expecting ',' delimiter at column 32)"),
        ("papers.jsonl", 4, "no abstract"),
        ("papers.jsonl", 6, "expected an object, got list"),
        ("wrapped.json", 2, "no abstract"),
        ("broken_nolink.csv", 2, "6 fields where the header has 3 (broken quoting?)"),
        ("papers.bib", 3, "no abstract"),
        ("papers.bib", 4, "malformed BibTeX entry 'broken2021' on line 24"),
    ],
)
def test_bad_record_is_skipped_with_one_line_reason(name, record, reason):
    result = read(name)

    lines = [skip_line(s) for s in result.skipped]
    source = f"{FIXTURES / name}#{record}"
    assert any(line.startswith(f"{source}: {reason}") for line in lines), lines
    assert all("\n" not in line and line.endswith("; record skipped") for line in lines)


@pytest.mark.parametrize(
    "name, good_ids",
    [
        ("papers.jsonl", ["j1", "j2", "j5"]),
        ("broken_nolink.csv", ["B1", "B3"]),
        ("papers.bib", ["10.5555/3295222.3295349", "devlin2019", "after2022"]),
    ],
)
def test_good_records_around_bad_ones_are_still_read(name, good_ids):
    assert [p.id for p in read(name).papers] == good_ids


def test_bad_year_drops_the_year_only():
    result = read("papers.jsonl")

    assert by_id(result)["j2"].year is None
    assert any(
        n.endswith("papers.jsonl#2: year 'n.d.' is not a year; year dropped") for n in result.notes
    )


def test_on_error_raise_stops_at_the_first_bad_record_with_the_same_line():
    skipped = read("papers.jsonl").skipped[0]

    with pytest.raises(InputError) as error:
        read("papers.jsonl", on_error="raise")

    assert str(error.value) == f"{skipped.source}: {skipped.reason}"
    assert str(error.value).endswith(
        "papers.jsonl#3: invalid JSON (Expecting ',' delimiter at column 32)"
    )


def test_csv_with_broken_quoting_is_repaired_around_the_link_column():
    result = read("broken.csv")
    papers = by_id(result)

    assert result.skipped == []
    assert papers["A2"].title == "Spatial channels, shape bias, and robustness"
    assert papers["A2"].keywords == ["vision"]
    assert papers["A3"].keywords == ["LLM", "truthfulness"]
    assert papers["A3"].abstract == (
        'We enhance the "truthfulness" of large language models, measured on TruthfulQA.'
    )
    assert papers["A4"].abstract == 'We call this "reward hacking".'
    assert any(
        "3 rows with broken quoting re-split around the 'link' column" in n for n in result.notes
    )


# --- whole files that cannot be read ----------------------------------------------------


@pytest.mark.parametrize(
    "paths, message",
    [
        (["missing.txt"], "missing.txt: no such file"),
        (["nothing-*.csv"], "nothing-*.csv: no file matches this pattern"),
        (["papers.xml"], "papers.xml: cannot tell the format from the extension '.xml'"),
        (["latin1.txt"], "latin1.txt: is not UTF-8 text (byte 0xe9 at offset 3)"),
        (["empty.csv"], "empty.csv: the file is empty"),
        (["no_abstract_column.csv"], "no_abstract_column.csv: no abstract column among id, title"),
    ],
)
def test_unreadable_input_is_an_input_error_naming_it(paths, message):
    with pytest.raises(InputError, match="^" + re.escape(str(FIXTURES / message))):
        read(*paths)


def test_unknown_extension_lists_formats_and_the_option():
    with pytest.raises(InputError) as error:
        read("papers.xml")

    assert "json (.json)" in str(error.value) and "--format" in str(error.value)


def test_unknown_format_name_is_an_input_error():
    with pytest.raises(InputError, match="unknown format 'xml'; choose one of text, json"):
        read("papers.json", format="xml")


# --- several inputs, globs, ids and duplicates ------------------------------------------


def test_glob_and_several_inputs_are_read_in_order():
    result = read_inputs([str(FIXTURES / "papers.*sv"), str(FIXTURES / "papers.json")])

    assert [p.id for p in result.papers] == ["c1", "c2", "t1", "t2", "p1", "p2"]


def test_a_file_given_twice_is_read_once():
    result = read("papers.tsv", "papers.ts?")

    assert [p.id for p in result.papers] == ["t1", "t2"]


def test_duplicate_abstract_is_merged_into_the_first_paper():
    result = read("papers.json", "duplicates.jsonl")

    assert result.duplicates == [(f"{FIXTURES / 'duplicates.jsonl'}#1", "p1")]
    assert [p.id for p in result.papers].count("p1") == 1


def test_abstracts_that_differ_only_in_case_and_spacing_are_duplicates(tmp_path):
    data = tmp_path / "near.jsonl"
    data.write_text(
        '{"id": "a", "abstract": "We study Graph  Neural networks."}\n'
        '{"id": "b", "abstract": "we study graph neural\\nnetworks."}\n'
        '{"id": "c", "abstract": "We study graph neural networks again."}\n'
    )
    result = read_inputs([data])

    assert [p.id for p in result.papers] == ["a", "c"]
    assert result.duplicates == [(f"{data}#2", "a")]


def test_a_title_with_nothing_to_clean_is_held_once(tmp_path):
    records = [
        {"title": "Plain title", "abstract": "We use BERT."},
        {"title": r"The $\alpha$-title", "abstract": "We use GPT."},
    ]
    data = tmp_path / "t.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in records))
    plain, latex = read_inputs([data]).papers

    assert plain.title_text is plain.title
    assert latex.title == r"The $\alpha$-title" and latex.title_text == "The α-title"


def test_same_id_with_another_abstract_is_skipped_as_duplicate_id():
    result = read("papers.json", "duplicates.jsonl")

    assert [s.source for s in result.skipped] == [f"{FIXTURES / 'duplicates.jsonl'}#2"]
    assert result.skipped[0].reason.startswith("duplicate id 'p1'")
    assert len(result.papers) == 3


def test_rebuilding_gives_the_same_ids():
    first = [p.id for p in read("no_header.txt", "with_header.txt").papers]
    again = [p.id for p in read("no_header.txt", "with_header.txt").papers]

    assert first == again
    assert all(pid.startswith("h") and len(pid) == 13 for pid in first)


def test_csv_fields_may_span_lines_when_quoted():
    result = read("multiline.csv")

    assert result.skipped == []
    assert by_id(result)["m1"].abstract == (
        'We propose LineNet.\nIt reads text split over lines, "quoted" properly.'
    )
    assert (
        by_id(result)["m1"].text
        == 'We propose LineNet. It reads text split over lines, "quoted" properly.'
    )
    assert [p.source.rsplit("#", 1)[1] for p in result.papers] == ["1", "2"]


def test_json_object_holding_records_under_another_key():
    paper = read("records.json").papers[0]

    assert (paper.id, paper.year, paper.source.rsplit("#", 1)[1]) == ("17", 2017, "1")


def test_invalid_json_file_is_an_input_error_with_the_position():
    with pytest.raises(InputError, match=r"broken\.json: invalid JSON \(.* at line 3 column 1\)"):
        read("broken.json")


def test_a_file_without_records_is_noted(tmp_path):
    path = tmp_path / "empty.txt"
    path.write_text("\n\n")

    result = read_inputs([path])

    assert (result.papers, result.notes) == ([], [f"{path}: no records found"])

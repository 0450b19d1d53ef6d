"""Cleaning LaTeX and links out of abstracts, for the NLP pipeline."""

import random
import re
import unicodedata

import pytest

from paperkg.extract.readers import clean_text, latex
from paperkg.extract.readers.header import looks_like_heading, venue_and_year


@pytest.mark.parametrize(
    "raw, text",
    [
        (r"underdetermined $\ell_p$ linear regression", "underdetermined ℓp linear regression"),
        (r"the prototypes of $\textbf{all}$ views", "the prototypes of all views"),
        (r"we show \textbf{all} of \emph{them}", "we show all of them"),
        (r"known as a ``collapse.'' Being", 'known as a "collapse." Being'),
        (r"the change in binding energy ($\Delta\Delta G$)", "the change in binding energy (ΔΔG)"),
        (r"89.7$\times$ acceleration and 15.45\% gains", "89.7× acceleration and 15.45% gains"),
        (r"the H\"older exponent of na\"{i}ve {\'e}t\'e", "the Hölder exponent of naïve été"),
        (r"Fig.~3 shows it", "Fig. 3 shows it"),
        (r"costs \$5 per $n$ runs", "costs $5 per n runs"),
        (r"an algorithm, \textit{syre}, to remove", "an algorithm, syre, to remove"),
        (r"uses $\mathbf A$ and $\log d$ space", "uses A and log d space"),
        (
            r"problems of the form $$ \min_x \lVert x \rVert_p $$ which",
            "problems of the form [math] which",
        ),
        (
            r"a bound of $\mathrm{poly}(n) \cdot \tilde O(d/\kappa^q) + \sum_{i=1}^n x_i$ space",
            "a bound of [math] space",
        ),
        ("spaces \n and\ttabs   collapse", "spaces and tabs collapse"),
        (r"as shown before~\cite{smith2020}.", "as shown before."),
        (r"visit our \href{https://example.org/demo}{demo page} now", "visit our demo page now"),
        # a name set in math is a name, however long, not a formula
        (
            r"we propose $\textit{\textbf{I}mportance-aware \textbf{C}o-\textbf{T}eaching for "
            r"Offline Model-based Optimization}~(\textbf{ICT})$.",
            "we propose Importance-aware Co-Teaching for Offline Model-based Optimization (ICT).",
        ),
        (r"the $\texttt{SubSelNet}$ model", "the SubSelNet model"),
        # Markdown emphasis
        ("we present **M**e**L**o**D**y, a **new** model", "we present MeLoDy, a new model"),
        (
            "latent variable models (*TeCoS-LVM*) simulate",
            "latent variable models (TeCoS-LVM) simulate",
        ),
        ("an *encoder* and a *decoder*.", "an encoder and a decoder."),
        # stars that are not emphasis stay
        ("A* search beats B* trees", "A* search beats B* trees"),
        ("with x*y and y*z terms", "with x*y and y*z terms"),
        ("*Code is available. We use BST* heaps", "Code is available. We use BST* heaps"),
    ],
)
def test_clean_text(raw, text):
    assert clean_text(raw)[0] == text


@pytest.mark.parametrize(
    "raw, text, code_urls",
    [
        (
            r"Code is available at \url{https://github.com/PKU-ML/Projector_Theory}.",
            "Code is available.",
            ["https://github.com/PKU-ML/Projector_Theory"],
        ),
        (
            r"The source code is available at: \href{https://github.com/machoshi/SelKD}",
            "The source code is available",
            ["https://github.com/machoshi/SelKD"],
        ),
        (
            "Our code is available at https://anonymous.4open.science/r/abc-123.",
            "Our code is available.",
            ["https://anonymous.4open.science/r/abc-123"],
        ),
        (
            "Models are released on huggingface.co/org/model.",
            "Models are released.",
            ["https://huggingface.co/org/model"],
        ),
        (
            r"IBA\footnote{Code is at \url{https://gitlab.com/a/iba}.} is durable.",
            "IBA is durable.",
            ["https://gitlab.com/a/iba"],
        ),
        (
            r"experts. *Code can be found at \url{https://github.com/ralphc1212/ram-mil*.",
            "experts. Code can be found.",
            ["https://github.com/ralphc1212/ram-mil"],
        ),
        (
            "See the project page https://example.org/project for videos.",
            "See the project page for videos.",
            [],
        ),
    ],
)
def test_links_to_code_become_code_urls_and_links_leave_the_text(raw, text, code_urls):
    assert clean_text(raw) == (text, code_urls)


@pytest.mark.parametrize(
    "paragraph, is_heading",
    [
        ("ICLR 2025 论文列表", True),
        ("# NeurIPS 2023 accepted papers", True),
        ("Attention Is All You Need", True),
        ("We propose ShortNet. It is short.", False),
        ("We propose ShortNet for tiny devices.", False),
        ("Why do transformers work?", False),
        ("A " + "very " * 30 + "long line without a full stop", False),
    ],
)
def test_heading_or_abstract(paragraph, is_heading):
    assert looks_like_heading(paragraph) is is_heading


@pytest.mark.parametrize(
    "heading, venue, year",
    [
        ("ICLR 2025 论文列表", "ICLR", 2025),
        ("neurips 2023 accepted papers", "NeurIPS", 2023),
        ("Proceedings of EMNLP-2022", "EMNLP", 2022),
        ("MIDL 2024 short papers", "MIDL", 2024),  # unknown venue: an upper-case token
        ("My reading list", None, None),
        ("Papers I liked in 2021", None, 2021),
    ],
)
def test_venue_and_year_of_a_heading(heading, venue, year):
    assert venue_and_year(heading) == (venue, year)


def test_whitespace_is_made_one_space_as_the_regular_expression_would():
    rng = random.Random(1)
    pieces = ["a", "b", " ", "  ", "\n", "\t", "\xa0", "\u2009", "\x1c", "."]
    for _ in range(20000):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
        assert latex._one_space(text) == re.sub(r"\s+", " ", text), repr(text)


# Quotes, escaped or not, are quotes; an accent command makes an accented letter only
# where a language writes that letter with that accent.
QUOTED_NAMES = ["Compose", "Decompose", "Composition through Decomposition", "A", "eval"]
SINGLE_QUOTES = [r"`{}'", r"\`{}\'", r"\'{}\'", r"`{}\'", r"\`{}'"]
DOUBLE_QUOTES = [r"``{}''", r"\`\`{}''", r"\`\`{}\'\'", r"``{}\'\'", r"\"{}\""]


@pytest.mark.parametrize("name", QUOTED_NAMES)
@pytest.mark.parametrize("form", SINGLE_QUOTES)
def test_single_quotes_escaped_or_not_are_quotes(form, name):
    raw = "In the " + form.format(name) + " step, agents learn."
    assert clean_text(raw)[0] == f"In the '{name}' step, agents learn."


@pytest.mark.parametrize("name", QUOTED_NAMES)
@pytest.mark.parametrize("form", DOUBLE_QUOTES)
def test_double_quotes_escaped_or_not_are_quotes(form, name):
    raw = "Our method, termed " + form.format(name) + ", works."
    assert clean_text(raw)[0] == f'Our method, termed "{name}", works.'


ACCENTED = [  # command, letter, what the author wrote
    ("'", "e", "é"), ("`", "e", "è"), ('"', "o", "ö"), ("^", "o", "ô"), ("~", "n", "ñ"),
    ("'", "E", "É"), ("`", "a", "à"), ('"', "u", "ü"), ("c", "c", "ç"), ("H", "o", "ő"),
    ("v", "s", "š"), ("=", "a", "ā"), ("u", "g", "ğ"),
]  # fmt: skip


@pytest.mark.parametrize("command, letter, accented", ACCENTED)
@pytest.mark.parametrize("form", [r"\{c}{s}{l}", r"\{c}{{{l}}}", r"{{\{c}{s}{l}}}"])
def test_an_accent_command_makes_the_accented_letter(form, command, letter, accented):
    space = " " if command.isalpha() else ""  # \c c, \H o: a letter command needs a space
    raw = "Caf" + form.format(c=command, s=space, l=letter) + "s of G"
    assert clean_text(raw)[0] == f"Caf{accented}s of G"


@pytest.mark.parametrize("raw", [r"the \'Decompose step", r"the \`Compose step", r"\`Compose"])
def test_an_accent_no_language_writes_is_a_quote(raw):
    text = clean_text(raw)[0]
    assert "'" in text and not any(unicodedata.combining(c) for c in text), text


def test_the_bundled_example_names_no_concept_with_latex_debris(example_graph):
    names = [
        name
        for _, data in example_graph.nodes(data=True)
        if data.get("label") != "Paper"
        for name in (data["name"], *data.get("aliases", []))
    ]
    assert "Composition through Decomposition" in names
    debris = [n for n in names if re.search(r"[\\`]", n) or any(map(unicodedata.combining, n))]
    assert debris == []


def test_titles_and_bibtex_fields_read_quotes_and_accents_alike(tmp_path):
    from paperkg.extract.readers import read_inputs

    bib = tmp_path / "refs.bib"
    bib.write_text(
        "@article{a1,\n  title = {The \\`\\`Compose'' Step of Erd\\H{o}s},\n"
        "  abstract = {In the \\'Decompose\\' step, agents learn caf\\'e names.},\n"
        "  year = {2024}\n}\n",
        encoding="utf-8",
    )
    jsonl = tmp_path / "papers.jsonl"
    jsonl.write_text(
        '{"title": "The \\\\`\\\\`Compose\'\' Step of Erd\\\\H{o}s", '
        '"abstract": "In the \\\\\'Decompose\\\\\' step, agents learn caf\\\\\'e names."}\n',
        encoding="utf-8",
    )
    for path in (bib, jsonl):
        (paper,) = read_inputs([path]).papers
        assert paper.title_text == 'The "Compose" Step of Erdős', path.name
        assert paper.text == "In the 'Decompose' step, agents learn café names.", path.name

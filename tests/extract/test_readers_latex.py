"""Cleaning LaTeX and links out of abstracts, for the NLP pipeline."""

import random
import re

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

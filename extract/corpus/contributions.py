"""What each paper proposes, decided once per (paper, concept) by a small learned model.

Extraction marks mentions a sentence puts forward ("we propose X", "which we term
X": :mod:`paperkg.extract.nlp.components.proposals`) and the titles step marks what a
title names (:mod:`paperkg.extract.corpus.titles`). Those rules are signs, not the
decision: a name in a title may be a used model, "we propose" may be followed by
"a large language model", and a coined name used three times may never be
caught by a sentence. Once every mention has its concept, :func:`contribution_flags`
weighs, for each concept a paper names, the signs below with boosted decision
trees trained on annotated NeurIPS 2023 abstracts
(``bench/train_contributions.py`` writes ``models/contributions.json``), and
flags the paper's mentions of the concepts it proposes (the build writes the
flags as the table of mentions' ``proposed`` column); every other mention is a
use.

The signs of one (paper, concept), :data:`FEATURES`:

- where the paper names it: in the title, as the title's name before its colon,
  as (most of) the whole title, how early in the abstract;
- how it is put forward: inside a "we propose / introduce / present / implement …"
  clause (before any "for", "to", "on"), after "termed / called / dubbed / namely",
  after "our";
  after a word of use ("using", "based on", "with");
- its name: coined ("SelKD", "EmbedLLM"), name-like ("LADS", "CIFAR-10"),
  Title Case, all lower case, an acronym this paper defines, its words;
- counts: its mentions in the paper, the papers of the corpus naming it (a name
  many papers use is nobody's contribution), how many of them the old rules
  marked proposed, and the papers naming it elsewhere: in a background of the
  2,938 NeurIPS 2023 abstracts outside the annotated select and test papers
  (:data:`BACKGROUND_PATH`; one of them built again does not count itself), so
  that in a corpus of twenty papers, where nearly every name is named by one
  paper, a used model ("Rotary Positional Encodings") is still known as one;
- the rules' verdict: a mention marked proposed by extraction or by the title;
- its label.

Examples
--------
>>> from paperkg.records import Concept, Mention, Paper, PaperMentions, Resolution
>>> text = "We propose LADS, a hierarchical approach. LADS uses transformers."
>>> paper = Paper(id="p", abstract=text, text=text, source="x", title="LADS: Skills")
>>> doc = paper.document
>>> found = PaperMentions(paper, [
...     Mention("LADS", "METHOD", 0, 4, "LADS: Skills.", proposed=True),
...     Mention("LADS", "METHOD", doc.index("LADS,"), doc.index("LADS,") + 4, text),
...     Mention("transformers", "METHOD", doc.index("transformers"),
...             doc.index("transformers") + 12, text)])
>>> concepts = {c.id: c for c in [Concept("Method:lads", "Method", "lads", "LADS"),
...             Concept("Method:transformer", "Method", "transformer", "transformer")]}
>>> resolution = Resolution(concepts=concepts, concept_of=[
...     ["Method:lads", "Method:lads", "Method:transformer"]])
>>> contribution_flags([found], resolution).tolist()
[True, True, False]
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from ...errors import ExtractionError
from ...records import PaperMentions, Resolution
from ..names import is_coined_name, looks_like_name
from ..nlp.cache import text_hash
from ..put_forward import put_forward_windows
from ..resolve.memo import name_memo
from .contribution_model import ContributionModel

__all__ = [
    "BACKGROUND_PATH",
    "FEATURES",
    "Background",
    "contribution_features",
    "contribution_flags",
    "corpus_counts",
    "load_background",
    "load_model",
    "text_key",
]

#: the shipped model (``bench/train_contributions.py`` writes it)
MODEL_PATH = Path(__file__).parent / "models" / "contributions.json"
#: the background corpus's papers naming each concept (written with the model)
BACKGROUND_PATH = MODEL_PATH.with_name("name_counts.json")

#: the signs of one (paper, concept), the model's columns in this order
FEATURES = (
    "rule_proposed",  # a mention marked proposed by extraction's or the title's rules
    "rule_share",  # the share of its mentions so marked
    "in_title",
    "title_head",  # the title's name before its colon
    "whole_title",  # the title is (most of) this name
    "title_only",  # named in the title and nowhere in the abstract
    "put_forward",  # inside a "we propose / introduce / present ..." clause
    "named_as",  # after "termed", "called", "dubbed", "named", "namely"
    "after_our",  # "our X", "the proposed X"
    "after_use",  # "using X", "based on X", "with X"
    "coined",  # mixed case inside a word: "SelKD", "EmbedLLM"
    "name_like",  # an acronym, CamelCase or letters with digits: "LADS", "CIFAR-10"
    "title_case",  # several words, each capitalised, written so in the abstract
    "lower_case",  # every surface in lower case
    "defined_here",  # an acronym the paper defines for it
    "name_words",  # log of the words of its wordiest surface
    "first_position",  # where the abstract first names it (0 start .. 1 end; 1 if never)
    "log_mentions",  # log(1 + its mentions in the paper)
    "log_papers",  # log(1 + papers of the corpus naming it)
    "one_paper",  # only this paper names it
    "log_papers_proposing",  # log(1 + papers whose rules mark it proposed)
    "label_method",
    "label_dataset",
    "label_task",
    "label_metric",
    "title_via",  # the title names it after "via", "with", "using", "by", "through"
    "title_for",  # the title names it before "for", "with", "via", a colon or its end
    "put_forward_name",  # put forward and name-like
    "title_head_name",  # the title's name and name-like
    "title_one",  # in the title, and only this paper names it
    "title_head_one",
    "whole_title_one",
    "put_forward_one",
    "defined_one",
    "coined_one",
    "named_one",
    "log_papers_elsewhere",  # log(1 + papers of the background corpus naming it)
)

#: words right before a name that say the paper names it: "termed X", "which we call X"
_NAMING_WORDS = frozenset(
    "term termed terms call called calls dub dubbed name named coin coined namely".split()
)
#: "refer to it as X": words a few places before "as"
_NAMING_AS = _NAMING_WORDS | {"refer", "refers", "referred"}
#: "our X", "the proposed X"
_OWN_WORDS = frozenset({"our", "proposed"})
#: words right before a name that say it is used: "using X", "based on X"
_USE_WORDS = frozenset(
    """using use uses used with via following like including than over existing prior
    previous popular pretrained pre-trained e.g. e.g.,""".split()
)
_USE_PAIRS = frozenset({("based", "on"), ("such", "as"), ("compared", "to"), ("compared", "with")})
_ARTICLES = frozenset({"the", "a", "an"})
_TITLE_BEFORE = re.compile(r"\b(?:via|with|using|by|through|from)\s+(?:an?\s+|the\s+)?$", re.I)
_TITLE_AFTER = re.compile(r"^\s*(?:$|:|\bfor\b|\bwith\b|\bvia\b|\busing\b|\bin\b|\bon\b)", re.I)
_LABELS = ("Method", "Dataset", "Task", "Metric")


@lru_cache(maxsize=1)
def load_model(path: str | Path = MODEL_PATH) -> ContributionModel:
    """The model stored at ``path`` (the shipped one by default)."""
    try:
        model = ContributionModel.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        if model.features != FEATURES:
            raise ValueError(f"trained on features {model.features}, this code computes {FEATURES}")
        return model
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ExtractionError(
            f"{path}: not a contribution model this paperkg can use ({e}); reinstall paperkg, "
            "or retrain it with bench/train_contributions.py"
        ) from e


@dataclass(frozen=True)
class Background:
    """How many papers of a background corpus name each concept, and which papers it
    holds: a background paper built again counts the others, not itself."""

    papers_naming: Mapping[str, int]
    #: :func:`text_key` of each paper of the background corpus
    papers: frozenset[str] = frozenset()

    def elsewhere(self, concept_id: str, paper_key: str) -> int:
        """The background's papers naming ``concept_id``, the paper ``paper_key`` not
        counted (it names every concept it is a candidate for)."""
        return max(0, self.papers_naming.get(concept_id, 0) - (paper_key in self.papers))


def text_key(document: str) -> str:
    """A paper's key in a :class:`Background`: the first 16 hex digits of its key in
    the extraction cache (the sha256 of its text)."""
    return text_hash(document)[:16]


@lru_cache(maxsize=1)
def load_background(path: str | Path = BACKGROUND_PATH) -> Background:
    """The background corpus's counts (the shipped table by default)."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        return Background(dict(data["papers_naming"]), frozenset(data["papers"]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ExtractionError(
            f"{path}: not a table of name counts this paperkg can use ({e}); reinstall "
            "paperkg, or rewrite it with bench/train_contributions.py"
        ) from e


#: papers whose signs are held in memory at once (a row per concept a paper names)
CHUNK_PAPERS = 5000


def contribution_features(
    results: list[PaperMentions],
    resolution: Resolution,
    papers: range | None = None,
    counts: tuple[Counter[str], Counter[str]] | None = None,
    background: Background | None = None,
) -> tuple[list[tuple[int, str]], np.ndarray]:
    """The (paper index, concept id) candidates of ``papers`` (all by default) and their
    signs, one row each.

    Every concept a paper names is a candidate once; a generic phrase (no concept)
    is none. ``counts`` are :func:`corpus_counts` of the whole corpus (counted here
    when not given); ``background`` the papers naming each concept elsewhere (the
    shipped :func:`load_background` when not given).
    """
    papers_naming, papers_proposing = counts or corpus_counts(results, resolution)
    background = load_background() if background is None else background
    keys: list[tuple[int, str]] = []
    rows: list[list[float]] = []
    for index in papers if papers is not None else range(len(results)):
        result, concept_ids = results[index], resolution.concept_of[index]
        paper_key = text_key(result.paper.document)
        for concept_id, row in _paper_rows(result, concept_ids, resolution).items():
            n = papers_naming[concept_id]
            row["log_papers"] = math.log1p(n)
            row["one_paper"] = one = float(n == 1)
            for sign in ("title", "title_head", "whole_title", "put_forward", "coined"):
                row[f"{sign}_one"] = one * row["in_title" if sign == "title" else sign]
            row["defined_one"] = one * row["defined_here"]
            row["named_one"] = one * row["named_as"]
            row["log_papers_proposing"] = math.log1p(papers_proposing[concept_id])
            row["log_papers_elsewhere"] = math.log1p(background.elsewhere(concept_id, paper_key))
            keys.append((index, concept_id))
            rows.append([row[name] for name in FEATURES])
    x = np.asarray(rows, dtype=float).reshape(len(rows), len(FEATURES))
    return keys, x


def corpus_counts(
    results: list[PaperMentions], resolution: Resolution
) -> tuple[Counter[str], Counter[str]]:
    """Per concept, the papers naming it and the papers whose rules marked it proposed."""
    papers_naming: Counter[str] = Counter()
    papers_proposing: Counter[str] = Counter()
    for result, concept_ids in zip(results, resolution.concept_of, strict=True):
        papers_naming.update({c for c in concept_ids if c is not None})
        papers_proposing.update(
            {c for m, c in zip(result.mentions, concept_ids, strict=True) if c and m.proposed}
        )
    return papers_naming, papers_proposing


def _paper_rows(result: PaperMentions, concept_ids: list, resolution: Resolution) -> dict:
    """The signs of each concept of one paper (the corpus counts are added by the caller)."""
    paper = result.paper
    document = paper.document
    title, title_end, abstract_start = paper.document_title, paper.title_end, paper.abstract_start
    colon = title.find(":")
    abstract_length = max(1, len(document) - abstract_start)
    windows = put_forward_windows(document, abstract_start)
    shorts = set(result.acronyms)
    longs = {lf.casefold() for lf in result.acronyms.values()}
    by_concept: dict[str, list] = {}
    for mention, concept_id in zip(result.mentions, concept_ids, strict=True):
        if concept_id is not None:
            by_concept.setdefault(concept_id, []).append(mention)
    rows = {}
    for concept_id, mentions in by_concept.items():
        label = resolution.concepts[concept_id].label
        surfaces = {m.text.strip() for m in mentions}
        signs = [_surface_signs(s) for s in surfaces]
        in_title = [m for m in mentions if m.start < title_end]
        in_abstract = [m for m in mentions if m.start >= abstract_start]
        before = [_words_before(document, m.start) for m in mentions]
        row = {
            "rule_proposed": float(any(m.proposed for m in mentions)),
            "rule_share": sum(m.proposed for m in mentions) / len(mentions),
            "in_title": float(bool(in_title)),
            "title_head": float(colon > 0 and any(m.end <= colon for m in in_title)),
            "whole_title": float(
                any(m.end - m.start >= 0.7 * len(title.split(":")[0]) for m in in_title)
                and bool(title)
            ),
            "title_only": float(bool(in_title) and not in_abstract),
            "put_forward": float(any(_inside(m.start, windows) for m in mentions)),
            "named_as": float(any(_named(words) for words in before)),
            "after_our": float(any(_OWN_WORDS.intersection(words) for words in before)),
            "after_use": float(
                any(
                    _used(words)
                    for words, m in zip(before, mentions, strict=True)
                    if m.start >= abstract_start
                )
            ),
            "coined": float(any(sign[0] for sign in signs)),
            "name_like": float(any(sign[1] for sign in signs)),
            "title_case": float(any(_surface_signs(m.text.strip())[3] for m in in_abstract)),
            "lower_case": float(all(sign[2] for sign in signs)),
            "defined_here": float(
                bool(surfaces & shorts)
                or any(m.long_form for m in mentions)
                or any(s.casefold() in longs for s in surfaces)
                or any("(" in s for s in surfaces)
            ),
            "name_words": math.log(max(sign[4] for sign in signs)),
            "first_position": min(
                ((m.start - abstract_start) / abstract_length for m in in_abstract), default=1.0
            ),
            "log_mentions": math.log1p(len(mentions)),
            **{f"label_{lb.lower()}": float(label == lb) for lb in _LABELS},
        }
        row["title_via"] = float(any(_TITLE_BEFORE.search(title[: m.start]) for m in in_title))
        row["title_for"] = float(any(_TITLE_AFTER.match(title[m.end :]) for m in in_title))
        row["put_forward_name"] = row["put_forward"] * row["name_like"]
        row["title_head_name"] = row["title_head"] * row["name_like"]
        rows[concept_id] = row
    return rows


@name_memo
def _surface_signs(surface: str) -> tuple[bool, bool, bool, bool, int]:
    """What one written form says: coined, name-like, lower case, Title Case of several
    words, and its words (names recur across papers: computed once each)."""
    words = surface.split()
    return (
        " " not in surface and is_coined_name(surface),
        any(looks_like_name(w) for w in words),
        surface == surface.lower(),
        len(words) > 1 and all(w[:1].isupper() for w in words),
        len(words),
    )


def _words_before(document: str, start: int) -> list[str]:
    """The three words before ``start``, lower case, their punctuation stripped."""
    words = document[max(0, start - 40) : start].lower().split()[-3:]
    return [w.strip(",;:()\"'") for w in words]


def _named(words: list[str]) -> bool:
    """ "termed X", "called X", "refer to it as X"."""
    if not words:
        return False
    if words[-1] in _NAMING_WORDS:
        return True
    return words[-1] in {"as", "it"} and bool(_NAMING_AS.intersection(words[:-1]))


def _used(words: list[str]) -> bool:
    """ "using X", "based on the X", "such as X"."""
    if words and words[-1] in _ARTICLES:
        words = words[:-1]
    return bool(words) and (words[-1] in _USE_WORDS or tuple(words[-2:]) in _USE_PAIRS)


def _inside(position: int, windows: list[tuple[int, int]]) -> bool:
    return any(a <= position < b for a, b in windows)


def decide(
    keys: list[tuple[int, str]], x: np.ndarray, model: ContributionModel
) -> set[tuple[int, str]]:
    """The candidates ``model`` says are proposed."""
    if not keys:
        return set()
    p = model.probabilities(x)
    return {key for key, pi in zip(keys, p, strict=True) if pi >= model.threshold}


def contribution_flags(
    results: Sequence[PaperMentions],
    resolution: Resolution,
    model: ContributionModel | None = None,
) -> np.ndarray:
    """Each mention's ``proposed`` as the model sets it, in corpus order (the ``proposed``
    column of the table of mentions): True for every mention of a concept its paper
    proposes, False for every other mention."""
    model = model or load_model()
    counts = corpus_counts(results, resolution)
    chosen: set[tuple[int, str]] = set()
    for start in range(0, len(results), CHUNK_PAPERS):
        papers = range(start, min(start + CHUNK_PAPERS, len(results)))
        chosen |= decide(*contribution_features(results, resolution, papers, counts), model)
    return np.fromiter(
        (
            concept_id is not None and (index, concept_id) in chosen
            for index, concept_ids in enumerate(resolution.concept_of)
            for concept_id in concept_ids
        ),
        dtype=bool,
    )

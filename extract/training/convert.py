"""Convert gold corpora (SciERC, SciER, TDMSci) into spaCy ``DocBin`` training files.

The gold readers of :mod:`paperkg.extract.evaluate.readers` turn each corpus into plain
text with character-offset spans. Here that text is tokenised with spaCy's own
English tokenizer, the tokenizer the shipped pipeline runs at prediction time,
so the model trains on the token boundaries it will see. A span whose edges
fall inside a token is widened to whole tokens; overlapping (nested) spans keep
the longest.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin, Span
from spacy.util import filter_spans

from ..evaluate import GoldDoc

logger = logging.getLogger(__name__)

__all__ = ["gold_to_docs", "metric_terms", "predicted_spans", "write_docbin"]


def gold_to_docs(
    gold_docs: Iterable[GoldDoc],
    nlp: spacy.Language | None = None,
    *,
    stats: Counter | None = None,
    missing: Callable[[Doc], Iterable[Span]] | None = None,
) -> list[Doc]:
    """Tokenise gold documents and set their spans as ``doc.ents``.

    ``missing`` marks spans as *unknown* rather than "not an entity": a corpus
    that does not annotate a label (TDMSci has no METHOD, SciER no METRIC) must
    not teach that its unlabelled methods or metrics are nothing. It gets the
    tokenised doc and returns candidate spans; those overlapping a gold span
    are ignored. ``stats`` (if given) counts ``spans``, ``widened`` (edges moved
    to token boundaries), ``dropped_overlap`` (nested spans left out) and
    ``missing`` (spans marked unknown).
    """
    nlp = nlp or spacy.blank("en")
    stats = stats if stats is not None else Counter()
    docs = []
    for gold in gold_docs:
        doc = nlp.make_doc(gold.text)
        spans = []
        for s in gold.spans:
            span = doc.char_span(s.start, s.end, label=s.label, alignment_mode="expand")
            if span is None:
                stats["unaligned"] += 1
                continue
            if (span.start_char, span.end_char) != (s.start, s.end):
                stats["widened"] += 1
            spans.append(span)
        kept = filter_spans(spans)
        stats["spans"] += len(kept)
        stats["dropped_overlap"] += len(spans) - len(kept)
        unknown = []
        if missing is not None:
            taken = {i for span in kept for i in range(span.start, span.end)}
            unknown = [
                span
                for span in filter_spans(list(missing(doc)))
                if not taken.intersection(range(span.start, span.end))
            ]
            stats["missing"] += len(unknown)
        doc.set_ents(kept, missing=unknown, default="outside")
        docs.append(doc)
    return docs


def write_docbin(docs: Sequence[Doc], path: str | Path) -> Path:
    """Save docs as a ``.spacy`` file that ``spacy train`` reads."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    DocBin(attrs=["ENT_IOB", "ENT_TYPE", "TAG"], docs=docs).to_disk(path)
    logger.info("wrote %d docs to %s", len(docs), path)
    return path


#: Evaluation measures named in ML papers. SciER does not annotate metrics, so
#: these words are marked unknown in SciER sentences rather than "not METRIC".
METRIC_TERMS = (
    "accuracy precision recall f1 f1-score f-score f-measure f1 score bleu rouge rouge-l "
    "rouge-1 rouge-2 meteor cider spice map ap auc roc-auc perplexity error rate "
    "error top-1 top-5 iou miou psnr ssim fid inception score exact match em "
    "wer cer mrr ndcg hits@1 hits@10 mae mse rmse"
).split()


def metric_terms(doc: Doc) -> list[Span]:
    """Single-token mentions of well-known metrics (see :data:`METRIC_TERMS`)."""
    terms = set(METRIC_TERMS)
    return [doc[t.i : t.i + 1] for t in doc if t.lower_ in terms]


def predicted_spans(nlp: spacy.Language, label: str) -> Callable[[Doc], list[Span]]:
    """Spans of ``label`` that the pipeline ``nlp`` predicts, on the doc's own tokens."""

    def find(doc: Doc) -> list[Span]:
        predicted = nlp(
            Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc])
        )
        return [doc[e.start : e.end] for e in predicted.ents if e.label_ == label]

    return find

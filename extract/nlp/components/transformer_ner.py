"""A small transformer NER for METHOD, DATASET, TASK and METRIC, run by onnxruntime.

Why a transformer: a CNN over hashed word features sees a few words either side;
deciding whether "a hierarchical Bayesian model" is a METHOD, and where "graph
neural networks for link prediction" splits into METHOD and TASK, needs the
whole sentence. A fine-tuned MiniLM (6 layers, 384 wide) scores about 18 F1
above the CNN on SciERC dev.

Why onnxruntime: the weights are exported once, quantised to int8 (23 MB), and
run without PyTorch, so a user installs a 20 MB runtime instead of several GB,
and one core tags about 50 abstracts a second. Training (PyTorch) lives in
:mod:`paperkg.extract.training.transformer`.

The component reads the doc's own spaCy tokens: each word is split into word
pieces, sentences are packed into windows of at most ``max_pieces`` pieces,
each word is labelled from its first piece, and BIO tags are decoded with a
Viterbi pass that forbids an ``I-X`` that does not continue an ``X`` and a
mention that ends on a function word (the POS tags come from the tagger before
this component).
"""

from __future__ import annotations

import json
import logging
import math
import platform
import shutil
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from spacy.language import Language
from spacy.tokens import Doc, Span
from spacy.util import minibatch

from ....errors import ExtractionError

log = logging.getLogger(__name__)

#: files of a model folder (what ``to_disk`` writes and ``from_disk`` reads)
MODEL_FILE = "model.onnx"
TOKENIZER_FILE = "tokenizer.json"
SETTINGS_FILE = "ner.json"

#: ``runner(input_ids, attention_mask) -> logits``; int64 arrays [batch, pieces]
#: in, float array [batch, pieces, labels] out
Runner = Callable[[np.ndarray, np.ndarray], np.ndarray]


@Language.factory(
    "paperkg_transformer_ner",
    default_config={
        "threads": 1,
        "max_pieces": 256,
        "batch_size": 1,
        "style": "scierc",
        "mention_cost": 0.0,
    },
)
def make_transformer_ner(
    nlp: Language,
    name: str,
    threads: int,
    max_pieces: int,
    batch_size: int,
    style: str,
    mention_cost: float,
) -> TransformerNER:
    return TransformerNER(
        name,
        threads=threads,
        max_pieces=max_pieces,
        batch_size=batch_size,
        style=style,
        mention_cost=mention_cost,
    )


#: onnxruntime's session option for exact int8 matrix products on x86 CPUs without VNNI
X64_QUANT_PRECISION = "session.x64quantprecision"


def int8_products_exact() -> bool:
    """Whether onnxruntime's int8 matrix products are exact on this CPU as they are.

    On x86 CPUs without VNNI (AVX2, AVX-512 before Cascade Lake) they saturate 16-bit
    sums: on an emulated Haswell two NeurIPS abstracts of two lost or changed 11 of
    their 38 mentions ("Gaussian noise perturbation" -> "Gaussian noise"). There the
    session asks for exact u8u8 products (:data:`X64_QUANT_PRECISION`), which
    extract more slowly; it would slow a CPU with VNNI too (1.7 against 3.0 s for 32
    abstracts here), where the products are exact anyway. The CPU's features are
    numpy's reading of CPUID; when numpy cannot tell, they are taken as inexact.
    """
    if platform.machine().lower() not in {"x86_64", "amd64", "i386", "i686", "x86"}:
        return True  # the option is for x86 only
    try:
        from numpy._core._multiarray_umath import __cpu_features__ as features
    except ImportError:  # numpy before 2.0, or another layout
        return False
    return bool(features.get("AVX512VNNI") or features.get("AVXVNNI"))


def onnx_session(path: Path, threads: int):
    """An onnxruntime session of the NER's model, on the CPU with ``threads`` threads."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    if not int8_products_exact():
        options.add_session_config_entry(X64_QUANT_PRECISION, "1")
    try:
        return ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
    except Exception as e:  # onnxruntime raises its own untyped errors
        raise ExtractionError(
            f"{path}: cannot load the ONNX model ({e}); reinstall paperkg."
        ) from e


@dataclass
class Window:
    """Word pieces of consecutive sentences of one doc, run through the model together."""

    doc_index: int
    piece_ids: list[int]  # with the leading [CLS] (and style marker) and trailing [SEP]
    #: for each word: (doc token index, position of its first piece in piece_ids)
    words: list[tuple[int, int]]


class TransformerNER:
    """Sets ``doc.ents`` from a token-classification transformer in ONNX format.

    ``threads``: onnxruntime's intra-op threads (1 = one core, as the benchmark
    measures). ``max_pieces``: window length in word pieces; shorter windows
    are faster (attention is quadratic) but see less context. ``batch_size``:
    windows per model call, sorted by length so padding stays small. It is 1
    by default: the int8 model quantises its activations with one scale per
    call, so the padding of a batch moved the tags of its other windows (a
    text's mentions depended on the texts beside it); one window a call is
    as fast on a CPU and always gives a text the same mentions.
    ``style``: whose conventions of what a mention is to follow, for a model
    trained with corpus markers: "scierc" (abstracts, descriptive phrases; the
    default), "scier" (full-text ML papers, shorter names) or "tdmsci" (NLP
    sentences, task, dataset and metric names). A model without markers has
    one style and ignores it. ``mention_cost``: log-odds, in nats, that each
    mention pays where it starts (taken off every ``B-`` tag before decoding); 0
    decodes as trained, more leaves out the mentions the model is least sure
    of. A model trained on several corpora tags more than a reader of any
    one style annotates, so the shipped pipeline sets a cost chosen on the
    in-domain select split: among the costs tied on mention F1 there, the one
    whose build scored best (``bench/mention_cost.py``,
    ``docs/extraction-quality.md``).
    """

    def __init__(
        self,
        name: str = "transformer_ner",
        *,
        threads: int = 1,
        max_pieces: int = 256,
        batch_size: int = 1,
        style: str = "scierc",
        mention_cost: float = 0.0,
    ) -> None:
        if not math.isfinite(mention_cost):
            raise ExtractionError(
                f"mention_cost must be a number of nats (0 decodes as trained), not {mention_cost}"
            )
        self.name = name
        self.mention_cost = mention_cost
        self.threads = threads
        self.max_pieces = max_pieces
        self.batch_size = batch_size
        self.style = style
        self.labels: list[str] = []
        self.runner: Runner | None = None
        self._tokenizer = None
        self._model_path: Path | None = None
        self._special: dict[str, int] = {}
        #: the marker pieces of each style the model learnt (ner.json's "styles")
        self._styles: dict[str, list[int]] = {}
        #: pieces after [CLS] in every window: the marker of ``style`` (or none)
        self._prefix_ids: list[int] = []
        self._allowed: np.ndarray | None = None
        self._outside = 0  # index of the "O" tag
        #: which tags begin a mention (pay ``mention_cost``)
        self._begins: np.ndarray | None = None

    # ------------------------------------------------------------------ loading

    def load(self, model_dir: str | Path, runner: Runner | None = None) -> TransformerNER:
        """Read a model folder (``model.onnx``, ``tokenizer.json``, ``ner.json``).

        ``runner`` replaces the ONNX session, e.g. a PyTorch model during
        training, so training scores exactly what this component does.
        """
        from tokenizers import Tokenizer

        model_dir = Path(model_dir)
        try:
            settings = json.loads((model_dir / SETTINGS_FILE).read_text(encoding="utf-8"))
            self._tokenizer = Tokenizer.from_file(str(model_dir / TOKENIZER_FILE))
        except (OSError, ValueError) as e:
            raise ExtractionError(
                f"{model_dir}: not a paperkg transformer NER folder ({e}); "
                "reinstall paperkg or retrain with `paperkg train`."
            ) from e
        self._tokenizer.no_truncation()
        self._tokenizer.no_padding()
        self.labels = list(settings["labels"])
        self._special = {k: int(settings[k]) for k in ("cls_id", "sep_id", "pad_id")}
        self._styles = {k: [int(i) for i in v] for k, v in settings.get("styles", {}).items()}
        if self._styles and self.style not in self._styles:
            raise ExtractionError(
                f"{model_dir}: no style {self.style!r} in this model; "
                f"set the component's style to one of {', '.join(sorted(self._styles))}."
            )
        self._prefix_ids = self._styles.get(self.style, [])
        self._allowed = _allowed_transitions(self.labels)
        self._outside = self.labels.index("O")
        self._begins = np.array([tag.startswith("B-") for tag in self.labels])
        self._model_path = model_dir / MODEL_FILE
        self.runner = runner or self._onnx_runner(self._model_path)
        return self

    @contextmanager
    def reading_style(self, style: str | None) -> Iterator[None]:
        """Read texts in ``style`` for a while, when the model learnt it.

        A gold corpus is scored in its own annotation style (SciERC marks generic
        methods, the in-domain annotations leave them out), so its score says how
        well the model learnt that convention; the graph reads in ``self.style``.
        """
        saved = self._prefix_ids
        if style is not None and style in self._styles:
            self._prefix_ids = self._styles[style]
        try:
            yield
        finally:
            self._prefix_ids = saved

    def _onnx_runner(self, path: Path) -> Runner:
        session = onnx_session(path, self.threads)

        def run(input_ids: np.ndarray, attention_mask: np.ndarray) -> np.ndarray:
            feeds = {"input_ids": input_ids, "attention_mask": attention_mask}
            return session.run(["logits"], feeds)[0]

        return run

    def to_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> None:
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        if self._model_path is None:
            raise ExtractionError("transformer NER has no model to save; call load() first.")
        if self._model_path.resolve() != (path / MODEL_FILE).resolve():
            shutil.copyfile(self._model_path, path / MODEL_FILE)
        self._tokenizer.save(str(path / TOKENIZER_FILE))
        settings = {"labels": self.labels, **self._special}
        if self._styles:
            settings["styles"] = self._styles
        (path / SETTINGS_FILE).write_text(json.dumps(settings, indent=1) + "\n", encoding="utf-8")

    def from_disk(self, path: str | Path, *, exclude: Iterable[str] = ()) -> TransformerNER:
        return self.load(path)

    # ------------------------------------------------------------------ tagging

    def __call__(self, doc: Doc) -> Doc:
        self._tag([doc])
        return doc

    def pipe(self, docs: Iterable[Doc], batch_size: int = 64) -> Iterator[Doc]:
        for batch in minibatch(docs, size=batch_size):
            self._tag(batch)
            yield from batch

    def _tag(self, docs: Sequence[Doc]) -> None:
        if self.runner is None:
            raise ExtractionError(
                "transformer NER has no model loaded; load the shipped pipeline "
                "with paperkg.extract.load_pipeline()."
            )
        windows = [w for i, doc in enumerate(docs) for w in self.windows(doc, i)]
        found: list[list[Span]] = [[] for _ in docs]
        order = sorted(range(len(windows)), key=lambda k: len(windows[k].piece_ids))
        for start in range(0, len(order), self.batch_size):
            batch = [windows[k] for k in order[start : start + self.batch_size]]
            logits = self._logits(batch)
            for window, scores in zip(batch, logits, strict=True):
                doc = docs[window.doc_index]
                found[window.doc_index].extend(self._spans(doc, window, scores))
        for doc, spans in zip(docs, found, strict=True):
            doc.set_ents(sorted(spans), default="outside")

    def windows(self, doc: Doc, doc_index: int = 0) -> list[Window]:
        """Pack the doc's sentences into windows of at most ``max_pieces`` pieces."""
        head = [self._special["cls_id"], *self._prefix_ids]
        room = self.max_pieces - 1 - len(head)
        sentences = list(doc.sents) if doc.has_annotation("SENT_START") else [doc[:]]
        windows: list[Window] = []
        ids: list[int] = []
        words: list[tuple[int, int]] = []

        def close() -> None:
            if words:
                piece_ids = [*head, *ids, self._special["sep_id"]]
                windows.append(Window(doc_index, piece_ids, [(t, p + len(head)) for t, p in words]))
            ids.clear()
            words.clear()

        for sent in sentences:
            tokens = [t for t in sent if not t.is_space]
            if not tokens:
                continue
            encoded = self._tokenizer.encode(
                [t.text for t in tokens], is_pretokenized=True, add_special_tokens=False
            )
            pieces = _pieces_per_word(encoded.word_ids, len(tokens))
            if len(ids) + len(encoded.ids) > room:
                close()
            offset = 0
            for token, n in zip(tokens, pieces, strict=True):
                if n == 0:
                    continue
                n_kept = min(n, room)  # one absurd "word" (a long URL): its first pieces
                if len(ids) + n_kept > room:
                    close()
                words.append((token.i, len(ids)))
                ids.extend(encoded.ids[offset : offset + n_kept])
                offset += n
        close()
        return windows

    def _logits(self, batch: Sequence[Window]) -> np.ndarray:
        width = max(len(w.piece_ids) for w in batch)
        input_ids = np.full((len(batch), width), self._special["pad_id"], dtype=np.int64)
        mask = np.zeros((len(batch), width), dtype=np.int64)
        for row, window in enumerate(batch):
            input_ids[row, : len(window.piece_ids)] = window.piece_ids
            mask[row, : len(window.piece_ids)] = 1
        return np.asarray(self.runner(input_ids, mask), dtype=np.float32)

    def _spans(self, doc: Doc, window: Window, logits: np.ndarray) -> list[Span]:
        first = [p for _, p in window.words]
        scores = _log_softmax(logits[first])
        scores[:, self._begins] -= self.mention_cost
        no_end = [_function_word(doc[t]) for t, _ in window.words]
        tags = viterbi(scores, self._allowed, no_end, outside=self._outside)
        spans = []
        start = None
        label = None
        for k, tag_id in enumerate([*tags, 0]):
            tag = self.labels[tag_id] if k < len(tags) else "O"
            if start is not None and not (tag.startswith("I-") and tag[2:] == label):
                span = _balanced(doc, window.words[start][0], window.words[k - 1][0] + 1)
                if span is not None:
                    spans.append(Span(doc, span[0], span[1], label=label))
                start = None
            if tag.startswith("B-") or (tag.startswith("I-") and start is None):
                start, label = k, tag[2:]
        return spans


#: parts of speech a name never ends with ("detection and", "identification of")
FUNCTION_POS = frozenset({"ADP", "AUX", "CCONJ", "DET", "PART", "PRON", "SCONJ"})


def _function_word(token) -> bool:
    """Whether no mention may end at ``token``: a lower-case function word.

    The tagger alone ends about one mention in thirty on "and", "of" or
    "against" (it has learnt that coordinations such as "detection and
    description algorithm" are one name, and runs on). Gold spans of SciERC
    and SciER end that way about once in 300, nearly all of them acronyms the
    POS tagger reads as function words ("MUC", "AS"), hence lower case only.
    """
    return token.pos_ in FUNCTION_POS and token.is_lower and token.is_alpha


_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def _balanced(doc: Doc, start: int, end: int) -> tuple[int, int] | None:
    """The span cut before its first unmatched bracket: "KD (SelKD" -> "KD".

    A tagger can stop inside "selective KD (SelKD)"; a name with half a bracket
    is never right, and the acronym component links the parenthesised short
    form anyway. A leading unmatched closing bracket is dropped the same way.
    """
    while start < end and doc[start].text in _CLOSE:
        start += 1
    stack: list[int] = []
    for i in range(start, end):
        text = doc[i].text
        if text in _OPEN:
            stack.append(i)
        elif text in _CLOSE:
            if not stack or doc[stack[-1]].text != _CLOSE[text]:
                end = i
                break
            stack.pop()
    if stack:
        end = min(end, stack[0])
    while end > start and (doc[end - 1].is_punct and doc[end - 1].text not in _CLOSE):
        end -= 1
    return (start, end) if end > start else None


def _pieces_per_word(word_ids: Sequence[int | None], n_words: int) -> list[int]:
    counts = [0] * n_words
    for w in word_ids:
        if w is not None:
            counts[w] += 1
    return counts


def _log_softmax(x: np.ndarray) -> np.ndarray:
    x = x - x.max(axis=-1, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=-1, keepdims=True))


def _allowed_transitions(labels: Sequence[str]) -> np.ndarray:
    """``allowed[a, b]``: may tag ``b`` follow tag ``a``? (``I-X`` only after ``B-X``/``I-X``.)"""
    n = len(labels)
    allowed = np.ones((n, n), dtype=bool)
    for b, tag in enumerate(labels):
        if tag.startswith("I-"):
            for a, prev in enumerate(labels):
                allowed[a, b] = prev[2:] == tag[2:] and prev[:2] in ("B-", "I-")
    return allowed


def viterbi(
    scores: np.ndarray,
    allowed: np.ndarray,
    no_end: Sequence[bool] | None = None,
    outside: int = 0,
) -> list[int]:
    """Best tag sequence under ``scores`` [words, tags] using only allowed transitions.

    A sequence may not start with an ``I-`` tag either (no tag before it to continue).
    ``no_end[k]``: no mention may end at word ``k``; the mention goes on, or word
    ``k`` is outside (tag ``outside``).
    """
    n_words, n_tags = scores.shape
    if n_words == 0:
        return []
    inside = ~allowed.all(axis=0)  # I- tags: not allowed after every tag
    penalty = np.where(allowed, 0.0, -1e9)
    # after a no-end word: from outside anything allowed, from a mention only its I- tag
    from_outside = np.arange(n_tags)[:, None] == outside
    must_go_on = np.where(allowed & (from_outside | inside[None, :]), 0.0, -1e9)
    best = np.where(inside, -1e9, scores[0])
    back = np.zeros((n_words, n_tags), dtype=np.int64)
    for i in range(1, n_words):
        ends_here = no_end is not None and no_end[i - 1]
        total = best[:, None] + (must_go_on if ends_here else penalty)
        back[i] = total.argmax(axis=0)
        best = total[back[i], np.arange(n_tags)] + scores[i]
    if no_end is not None and no_end[-1]:
        best = np.where(np.arange(n_tags) == outside, best, -1e9)
    tags = [int(best.argmax())]
    for i in range(n_words - 1, 0, -1):
        tags.append(int(back[i, tags[-1]]))
    return tags[::-1]

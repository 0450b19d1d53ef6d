"""Umbrella terms: the one word-list rule left beside the concept model.

Whether a concept names a specific thing is decided by a model trained on
annotated abstracts (:mod:`paperkg.extract.corpus.concept_model`). One rule
stays in front of it because the selection set shows it still pays: an
*umbrella term*, a whole field ("machine learning", "computer vision") or the
general kind of model ("deep neural network", "learning algorithm", "generative
model"), made of the words of :data:`UMBRELLA_WORDS` and broad adjectives only,
is generic whatever its mentions look like. On the 120 NeurIPS 2023 abstracts of
the selection split, at the same key concepts found (0.643), the model with
this rule gives 53.0% of links right and 51.9% without it; the other word-list
rules (a bare word, unnamed data, a generic head, an object of study) added to
the model changed links right by under 0.3 points or lowered it, and are gone.

>>> generic_reason("deep neural network"), generic_reason("machine learning")
('field', 'field')
>>> generic_reason("diffusion model") is None
True
"""

from __future__ import annotations

from .components.lexicon import FILLER_ADJECTIVES, GENERIC_MODIFIERS

__all__ = ["FIELDS", "UMBRELLA_WORDS", "generic_reason"]

#: names of whole fields: a paper is *in* them, it does not use or address them
FIELDS = frozenset(
    """
    machine learning|deep learning|artificial intelligence|ai|ml|dl|natural language
    processing|nlp|computer vision|data science|data mining|statistics|statistical
    learning|pattern recognition|signal processing|computational science|scientific
    computing|machine intelligence|cognitive science|information retrieval
    """.replace("\n", " ")
    .replace(" |", "|")
    .replace("| ", "|")
    .strip()
    .split("|")
)
#: words of the general kind of model: a name made of these only is an umbrella term
UMBRELLA_WORDS = frozenset(
    """
    neural deep network networks net nets model models algorithm algorithms method methods
    learning machine system systems architecture architectures technique techniques
    approach approaches framework frameworks artificial intelligent intelligence
    computational statistical mathematical generative discriminative probabilistic
    predictive parametric nonparametric non-parametric data-driven learning-based
    black-box ml ai dnn dnns nn nns ann anns deep-learning machine-learning
    """.split()
)
#: adjectives that say what kind of thing, not which one
_BROAD_ADJECTIVES = frozenset(
    """
    trained pretrained pre-trained learned source target reference base baseline teacher
    student hybrid joint single multiple deep shallow generative discriminative
    probabilistic predictive statistical computational mathematical theoretical empirical
    nonlinear non-linear parametric nonparametric non-parametric sequential iterative
    adaptive dynamic static global local modular end-to-end data-driven learning-based
    black-box white-box downstream upstream real-world practical automated automatic
    manual human neural universal task-specific domain-specific off-the-shelf naive
    optimal suboptimal sub-optimal accurate approximate exact high-quality low-quality
    high-dimensional low-dimensional large-scale small-scale full partial final initial
    original underlying overall resulting corresponding desired
    """.split()
)
#: the words an umbrella term is made of besides UMBRELLA_WORDS: "deep", "generative"
_KIND_WORDS = GENERIC_MODIFIERS | FILLER_ADJECTIVES | _BROAD_ADJECTIVES


def generic_reason(key: str) -> str | None:
    """``"field"`` when the canonical ``key`` is an umbrella term, else ``None``.

    >>> generic_reason("learning algorithm"), generic_reason("graph neural network")
    ('field', None)
    """
    words = key.split()
    if not words:
        return "field"
    if key in FIELDS or (
        any(w in UMBRELLA_WORDS for w in words)
        and all(w in UMBRELLA_WORDS or w in _KIND_WORDS for w in words)
    ):
        return "field"
    return None

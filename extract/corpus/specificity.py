"""The two word-list rules left beside the concept model.

Whether a concept names a specific thing is decided by a model trained on
annotated abstracts (:mod:`paperkg.extract.corpus.concept_model`). Two rules stay
in front of it because the selection set shows they still pay:

``field``
    an *umbrella term*, a whole field ("machine learning", "computer vision") or
    the general kind of model ("deep neural network", "learning algorithm",
    "generative model"), words of :data:`UMBRELLA_WORDS` and broad adjectives
    only, whatever its mentions look like;
``bare word``
    one common lowercase word not written as a name, unless it names one thing
    on its own (:data:`SPECIFIC_SINGLE_TASKS`, :data:`SPECIFIC_SINGLE_METHODS`,
    :data:`SPECIFIC_SINGLE_METRICS`): "detection", "segmentation", "kernel",
    "rate". The model keeps some of them, and the graph's ``IS_A`` edges then
    make them hubs that top every list ("detection" above "object detection").
    A word is common only when every way the corpus writes it is letters alone:
    a compound ("meta-learning", "actor-critic", "down-sampling" beside
    "downsampling"), a word with digits ("L2", "word2vec") or signs ("pass@k") is
    the model's to decide. As bare words, compounds had left out meta-learning
    (35 NeurIPS 2023 papers), text-to-image and k-means; retrained without that,
    the concept model found as many key concepts on select (0.681) with 75.5% of
    links right against 74.6% (held-out test: 74.5% against 73.5% of links
    right, 0.686 against 0.695 of the key concepts).

What each rule pays, with the concept model retrained without it
(``bench/concept_training.py``, chosen on the 120 NeurIPS 2023 abstracts of the
selection split at its key-concept floor): with both, 75.4% of links right and
0.681 of the key concepts; without ``bare word``, 74.9% and 0.682; without
``field``, 75.3% and 0.682, but "generative model" (49 papers) and "deep neural
network" (45) join the 30 most linked Methods. The other rules (unnamed data, a
generic head, an object of study) changed links right by under 0.3 points or
lowered it, and are gone.

>>> generic_reason("deep neural network"), generic_reason("detection", "Task")
('field', 'bare word')
>>> generic_reason("diffusion model") is None, generic_reason("summarization", "Task") is None
(True, True)
"""

from __future__ import annotations

from collections.abc import Iterable

from ..nlp.components.lexicon import (
    FILLER_ADJECTIVES,
    GENERIC_MODIFIERS,
    METRIC_HEADS,
    STANDALONE_METHOD_HEADS,
)

__all__ = [
    "FIELDS",
    "NAMED_SHARE",
    "SPECIFIC_SINGLE_METHODS",
    "SPECIFIC_SINGLE_METRICS",
    "SPECIFIC_SINGLE_TASKS",
    "UMBRELLA_WORDS",
    "generic_reason",
]

#: names of whole fields: a paper is *in* them, it does not use or address them. The
#: link verdicts of ``bench/judged/GUIDE.md`` (its table of verdicts) call them generic;
#: its in-domain annotations (section 5) call a subfield such as "computer vision" a
#: specific Task, and their train and test readers mostly did. Left to the concept
#: model, the subfields gave 4 more links on select, all generic there, so the list
#: keeps them
FIELDS = frozenset(
    " ".join(field.split())  # a field may wrap onto the next line
    for field in """
    machine learning|deep learning|artificial intelligence|ai|ml|dl|natural language
    processing|nlp|computer vision|data science|data mining|statistics|statistical
    learning|pattern recognition|signal processing|computational science|scientific
    computing|machine intelligence|cognitive science|information retrieval
    """.split("|")
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
#: single words that do name one task on their own
SPECIFIC_SINGLE_TASKS = frozenset(
    """
    summarization summarisation captioning inpainting outpainting
    dehazing deraining deblurring colorization colourization transliteration diarization
    tokenization lemmatization paraphrasing dialogue translation
    """.split()
)
#: single lowercase words that name a technique on their own ("distillation"); any
#: other lone word as a Method ("graph", "descent", "bias", "kernel") names none
SPECIFIC_SINGLE_METHODS = STANDALONE_METHOD_HEADS | frozenset(
    """
    regularization regularisation augmentation normalization normalisation convolution
    convolutions pooling ensembling backpropagation bootstrapping hashing sparsification
    tokenization quantisation dropout mixup cutout bagging boosting distillation
    finetuning pretraining prompting pruning quantization attention transformer
    transformers autoencoder autoencoders perceptron
    """.split()
)
#: single words that name a metric on their own, beside the well-known metrics
SPECIFIC_SINGLE_METRICS = METRIC_HEADS | frozenset(
    "regret perplexity elbo iou miou fid lpips".split()
)
_SPECIFIC_SINGLE = {
    "Task": SPECIFIC_SINGLE_TASKS,
    "Method": SPECIFIC_SINGLE_METHODS,
    "Metric": SPECIFIC_SINGLE_METRICS,
    "Dataset": frozenset(),
}
#: share of a concept's mentions written as names that makes it a named thing
NAMED_SHARE = 0.5
#: the words an umbrella term is made of besides UMBRELLA_WORDS: "deep", "generative"
_KIND_WORDS = GENERIC_MODIFIERS | FILLER_ADJECTIVES | _BROAD_ADJECTIVES


def generic_reason(
    key: str, label: str | None = None, *, named: bool = False, surfaces: Iterable[str] = ()
) -> str | None:
    """Why the concept of canonical ``key`` and ``label`` is generic by rule, or ``None``
    (then the concept model decides).

    ``named``: at least :data:`NAMED_SHARE` of its mentions are written as names
    (:func:`~paperkg.extract.names.mention_is_name`), which spares a bare word.
    ``surfaces``: how its mentions write it; a one-word spelling that is not letters
    alone ("down-sampling" for "downsampling") spares it too, whichever spelling gave
    the key (a longer surface merged into it, "Online Algorithms", does not).

    >>> generic_reason("learning algorithm"), generic_reason("graph neural network")
    ('field', None)
    >>> generic_reason("kernel", "Method"), generic_reason("kernel", "Method", named=True)
    ('bare word', None)
    >>> generic_reason("meta-learning", "Task"), generic_reason("downsampling", "Method")
    (None, 'bare word')
    >>> generic_reason("downsampling", "Method", surfaces=["downsampling", "down-sampling"])
    """
    words = key.split()
    if not words:
        return "field"
    if key in FIELDS or (
        any(w in UMBRELLA_WORDS for w in words)
        and all(w in UMBRELLA_WORDS or w in _KIND_WORDS for w in words)
    ):
        return "field"
    if len(words) == 1 and label in _SPECIFIC_SINGLE and not named:
        plain = all(form.isalpha() for form in (words[0], *surfaces) if " " not in form)
        if plain and words[0] not in _SPECIFIC_SINGLE[label]:
            return "bare word"
    return None

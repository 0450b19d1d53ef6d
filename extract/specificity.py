"""Concepts, not phrases: leave out the concepts that name no specific thing.

A reader mapping a field looks up *diffusion models*, *ImageNet* and *FID*, not
"neural network", "training data", "generation" or "source model". Those phrases
are the NER's true positives by the annotation guides of SciERC (which marks
descriptive phrases), yet in a graph they are hubs that link every paper to
every other and crowd the top lists and the view. :func:`generic_concepts`
decides, per concept and with all its mentions in the corpus as evidence,
whether it is one of them, and says which rule says so:

``field``
    an umbrella term: a whole field ("machine learning", "computer vision") or
    the general kind of model ("deep neural network", "learning algorithm",
    "generative model"), words of :data:`UMBRELLA_WORDS` only;
``bare word``
    one common word, unless it names one thing on its own (:data:`SPECIFIC_SINGLE_TASKS`,
    :data:`SPECIFIC_SINGLE_METHODS`, :data:`SPECIFIC_SINGLE_METRICS`): a task word
    ("generation", "prediction", "detection"), a noun as a Method ("gradient",
    "graph", "descent"), a data word as a Dataset ("image", "text"), a quantity
    word as a Metric ("error", "rate");
``unnamed data``
    a Dataset no mention of which is a name ("real-world dataset", "synthetic
    data", "unlabeled video"): datasets are named things;
``generic head``
    a generic head ("model", "method", "application") with nothing but broad
    modifiers ("source model", "search algorithm", "real-world application");
``object``
    a mathematical or physical object described by adjectives ("dynamical
    system", "partial differential equation", "latent space", "inductive
    bias"): something papers study or work in, not a method, dataset, task or
    metric.

A concept that most of its mentions write as a name (capitals inside, digits,
an acronym: "ImageNet", "CIFAR-10", "WILDS data") is never generic by the last
three rules. The build leaves generic concepts out of
the graph and reports how many there were.
"""

from __future__ import annotations

import logging
from collections import Counter
from dataclasses import replace

from ..records import PaperMentions, Resolution
from .components.lexicon import (
    FILLER_ADJECTIVES,
    GENERIC_MODIFIERS,
    METHOD_GENERIC_HEADS,
    METRIC_HEADS,
    STANDALONE_METHOD_HEADS,
    TASK_WORDS,
)
from .names import mention_is_name

__all__ = [
    "BROAD_NOUNS",
    "FIELDS",
    "UMBRELLA_WORDS",
    "drop_generic",
    "generic_concepts",
    "generic_reason",
]

logger = logging.getLogger(__name__)

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
#: broad nouns: alone, or beside a generic head, they name an activity or a property,
#: not a method, dataset, task or metric
BROAD_NOUNS = frozenset(
    """
    learning training inference optimization optimisation generalization generalisation
    efficiency fairness robustness performance representation representations
    embedding embeddings feature features gradient gradients sampling estimation
    prediction predictions generation detection classification regression calibration
    adaptation alignment reasoning planning exploration control search retrieval memory
    computation complexity scalability quality error errors loss data information
    knowledge structure function functions distribution distributions signal noise
    application applications analysis evaluation modeling modelling simulation
    understanding recognition processing decision decisions interaction interactions
    selection update updates approximation solution solutions design training-free
    parameter parameters weight weights output outputs input inputs behavior behaviour
    capability capabilities ability abilities accuracy speed cost process
    """.split()
)
#: adjectives that say what kind of thing, not which one
BROAD_ADJECTIVES = frozenset(
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
    summarization summarisation captioning inpainting outpainting super-resolution
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
    self-attention cross-attention fine-tuning finetuning pre-training pretraining
    prompting pruning quantization attention transformer transformers autoencoder
    autoencoders perceptron word2vec
    """.split()
)
#: single words that name a metric on their own, beside the well-known metrics
SPECIFIC_SINGLE_METRICS = METRIC_HEADS | frozenset(
    "regret perplexity log-likelihood elbo iou miou top-1 top-5 fid lpips".split()
)
_DATA_HEADS = frozenset(
    """
    data dataset datasets benchmark benchmarks corpus corpora collection set sets sample
    samples example examples image images text texts video videos audio instance
    instances record records
    """.split()
)
#: heads of objects of study: "dynamical *system*", "low-dimensional *manifold*"
OBJECT_HEADS = frozenset(
    """
    equation equations system systems manifold manifolds space spaces domain domains norm
    norms matrix matrices tensor tensors mesh meshes surface surfaces distribution
    distributions variable variables dependency dependencies phenomenon phenomena
    property properties landscape landscapes geometry structure structures bias biases
    trajectory trajectories curve curves graph graphs
    """.split()
)
#: endings of English adjectives ("dynamical", "stochastic", "inductive", "unstructured")
_ADJECTIVE_ENDINGS = (
    "al",
    "ic",
    "ive",
    "ous",
    "ed",
    "ary",
    "ory",
    "ble",
    "ian",
    "less",
    "ful",
    "ar",
)
#: adjectives in -ent/-ant (nouns end so too: "agent", "gradient", "environment")
_ENT_ADJECTIVES = frozenset(
    """
    latent recurrent independent dependent different efficient coherent consistent
    transparent invariant equivariant relevant salient sufficient persistent intelligent
    divergent convergent dominant redundant significant abundant constant
    """.split()
)


def _is_adjective(word: str) -> bool:
    last = word.rsplit("-", 1)[-1]
    return last in _ENT_ADJECTIVES or last.endswith(_ADJECTIVE_ENDINGS)


_TASK_GENERIC_HEADS = TASK_WORDS | frozenset(
    "application applications setting settings scenario scenarios domain domains".split()
)
_METRIC_GENERIC_HEADS = frozenset("metric metrics measure measures score scores".split())
_KIND_WORDS = GENERIC_MODIFIERS | FILLER_ADJECTIVES | BROAD_ADJECTIVES | BROAD_NOUNS
#: the words an umbrella term is made of: "deep neural network", "learning algorithm"
_UMBRELLA_OR_KIND = UMBRELLA_WORDS | (_KIND_WORDS - BROAD_NOUNS)
#: words that describe an object of study rather than name it
_DESCRIBING = GENERIC_MODIFIERS | FILLER_ADJECTIVES | BROAD_ADJECTIVES
#: modifiers that add nothing: "our new model"
_FILLER = GENERIC_MODIFIERS | FILLER_ADJECTIVES
#: heads that, with one broad modifier, name no particular thing, per label
_GENERIC_HEADS = {
    "Method": METHOD_GENERIC_HEADS | BROAD_NOUNS,
    "Task": _TASK_GENERIC_HEADS | BROAD_NOUNS,
    # "prediction error", "training speed": a quantity measured is a metric
    "Metric": _METRIC_GENERIC_HEADS,
}


#: share of a concept's mentions written as names that makes it a named thing
NAMED_SHARE = 0.5


def generic_reason(key: str, label: str, *, named: bool) -> str | None:
    """Why the concept ``key`` (canonical key) of ``label`` is generic, or ``None``.

    ``named``: its mentions are written as names, which only ever spares a
    concept: a reason given when it is named is also given when it is not.

    >>> generic_reason("deep neural network", "Method", named=True)
    'field'
    >>> generic_reason("generation", "Task", named=False)
    'bare word'
    >>> generic_reason("real-world dataset", "Dataset", named=False)
    'unnamed data'
    >>> generic_reason("search algorithm", "Method", named=False)
    'generic head'
    >>> generic_reason("partial differential equation", "Task", named=False)
    'object'
    >>> generic_reason("diffusion model", "Method", named=False) is None
    True
    """
    words = key.split()
    if not words:
        return "generic head"
    if key in FIELDS or (
        any(w in UMBRELLA_WORDS for w in words) and all(w in _UMBRELLA_OR_KIND for w in words)
    ):
        return "field"
    if named:
        return None
    if len(words) == 1:
        word = words[0]
        if label == "Task" and word not in SPECIFIC_SINGLE_TASKS:
            return "bare word"
        if label == "Method" and word not in SPECIFIC_SINGLE_METHODS:
            return "bare word"
        if label == "Dataset":
            return "bare word"
        if label == "Metric" and word not in SPECIFIC_SINGLE_METRICS:
            return "bare word"
        return None
    if label == "Dataset":
        return "unnamed data"
    head, modifiers = words[-1], words[:-1]
    if head in OBJECT_HEADS and all(w in _DESCRIBING or _is_adjective(w) for w in modifiers):
        return "object"
    if head not in _GENERIC_HEADS.get(label, ()):
        return None
    # one broad modifier ("search algorithm"); more of them start to name something
    # ("memory optimization strategy"), unless they are all filler ("our new model")
    if all(w in _FILLER for w in modifiers) or (
        len(modifiers) == 1 and modifiers[0] in _KIND_WORDS
    ):
        return "generic head"
    return None


def generic_concepts(results: list[PaperMentions], resolution: Resolution) -> dict[str, str]:
    """Concept id -> why it is generic, for every generic concept of the corpus.

    Whether a concept's mentions are written as names is asked only of the concepts
    it decides: being named only ever spares a concept (see :func:`generic_reason`),
    so a concept generic for no reason unnamed, or for the same reason named, needs
    no look at its mentions (most do not: the look was 0.6 s of 0.9 at 3,218 papers).
    """
    undecided: dict[str, str] = {}  # concept id -> its reason unless it is named
    decided: dict[str, str | None] = {}
    for cid, concept in resolution.concepts.items():
        reason = generic_reason(concept.key, concept.label, named=False)
        if reason is not None and generic_reason(concept.key, concept.label, named=True) is None:
            undecided[cid] = reason
        else:
            decided[cid] = reason
    named: Counter[str] = Counter()
    mentions: Counter[str] = Counter()
    for result, concept_ids in zip(results, resolution.concept_of, strict=True):
        for mention, cid in zip(result.mentions, concept_ids, strict=True):
            if cid in undecided:
                mentions[cid] += 1
                named[cid] += mention_is_name(mention)
    out = {}
    for cid in resolution.concepts:
        if cid in undecided:
            is_named = named[cid] >= NAMED_SHARE * mentions[cid] and named[cid] > 0
            reason = None if is_named else undecided[cid]
        else:
            reason = decided[cid]
        if reason is not None:
            out[cid] = reason
    return out


def drop_generic(results: list[PaperMentions], resolution: Resolution) -> Resolution:
    """``resolution`` without its generic concepts: their mentions map to ``None``.

    The dropped concepts are kept in ``resolution.generic`` (id -> reason, the
    most mentioned first), so a build can say what it left out.
    """
    generic = generic_concepts(results, resolution)
    counts = Counter(c for ids in resolution.concept_of for c in ids if c in generic)
    concept_of = [[None if c in generic else c for c in ids] for ids in resolution.concept_of]
    concepts = {cid: c for cid, c in resolution.concepts.items() if cid not in generic}
    logger.info("%d generic concepts left out", len(generic))
    return replace(
        resolution,
        concepts=concepts,
        concept_of=concept_of,
        generic={cid: generic[cid] for cid in sorted(generic, key=lambda c: (-counts[c], c))},
    )

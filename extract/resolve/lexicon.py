"""The words the resolve stage decides with, in one place.

Each list says in its comment what it is for. Some look alike on purpose:

* :data:`GENERIC_TAILS` are dropped from *every* mention's key after a name
  ("BERT model" -> "BERT", "ImageNet dataset" -> "ImageNet"), so they include
  words that only ever follow a name as its kind ("network", "library", "data",
  "set");
* :data:`VARIANT_TAILS` decide whether two *different* keys are one name with
  and without its kind ("hashtag recommendation" and "hashtag recommendation
  task"), and the stem must still be a name; they leave out "network" ("graph
  network" is not "graph") and "data"/"set" (a "training set" is not
  "training"), and add the method words that name a kind of method
  ("scheme", "procedure", "strategy").
"""

__all__ = [
    "DETERMINERS",
    "GENERIC_WORDS",
    "GENERIC_LEADING",
    "GENERIC_LEADING_ALWAYS",
    "NOVEL_KEEP",
    "GENERIC_TAILS",
    "GENERIC_TAILS_ALWAYS",
    "KIND_TAILS",
    "NAMED_WITHOUT_KIND",
    "VARIANT_TAILS",
    "NOT_OF_HEADS",
    "PROCESS_HEADS",
    "NOT_AGENTS",
    "VERSION_WORDS",
    "WORD_FORM_EXCEPTIONS",
    "LOWERCASE_WORDS",
]

# --- used by keys ---------------------------------------------------------------

#: leading words that never belong to a concept's name
DETERMINERS = frozenset(
    """
    the a an our their its his her this these those that such each every any some my your
    we us both either several various many most more few all other another
    one two three four five six seven eight nine ten
    """.split()
)

#: words that make up a generic phrase: a mention made only of these (and
#: determiners) says "some method" rather than naming one, and is dropped
GENERIC_WORDS = frozenset(
    """
    method methods model models approach approaches framework frameworks algorithm
    algorithms technique techniques system systems architecture architectures scheme
    schemes strategy strategies procedure procedures pipeline pipelines paradigm paradigms
    solution solutions baseline baselines work works paper papers study studies task
    tasks problem problems dataset datasets data benchmark benchmarks metric metrics
    result results performance module modules mechanism mechanisms network networks
    variant variants version versions setting settings experiment experiments idea ideas
    technology technologies tool tools design designs formulation formulations
    counterpart counterparts alternative alternatives extension extensions one ones
    it they them which what this
    novel proposed new existing previous prior current recent standard traditional
    conventional classical classic popular common typical simple effective efficient
    general generic strong powerful various several other same different similar
    state-of-the-art sota state art of the leading competing competitive original
    well-known widely-used widely used many multiple specific particular corresponding
    related underlying above following aforementioned respective present given
    """.split()
)

#: generic adjectives stripped at the start of a concept name ("a novel X" -> "X")
GENERIC_LEADING = frozenset({"novel", "proposed", "new"})

#: ... and these wherever the name starts ("existing GNN-based methods")
GENERIC_LEADING_ALWAYS = frozenset(
    """proposed existing previous recent current state-of-the-art sota popular different
    conventional""".split()
)

#: ... except where they are part of a name ("novel view synthesis")
NOVEL_KEEP = frozenset(
    "view views class classes object objects category categories concept concepts".split()
)

#: generic last words dropped after a name: "BERT model" -> "BERT", "ImageNet dataset"
GENERIC_TAILS = {
    "METHOD": frozenset(
        """model method algorithm approach framework architecture technique network system
        paradigm toolkit library package""".split()
    ),
    "DATASET": frozenset("dataset data benchmark corpus suite collection set".split()),
    "TASK": frozenset("task problem benchmark challenge".split()),
    "METRIC": frozenset("score metric measure value".split()),
}

#: generic last words dropped after any words: "hashtag recommendation task"
GENERIC_TAILS_ALWAYS = {"TASK": frozenset({"task", "tasks"})}

#: words that say only what kind of method a descriptive name of two words or more is,
#: dropped from it in lower case ("random fragment masking strategy", "cascaded hybrid
#: optimization approach"; not "Masked Two-channel Decoupling Framework"). Careful
#: readers of NeurIPS 2023 abstracts left these out of a name about three times in four
#: (``bench/judged/annotations``); "model", "network", "algorithm" and "mechanism" they
#: kept, so those stay.
KIND_TAILS = {
    "METHOD": frozenset("strategy technique scheme approach framework method paradigm".split())
}

# --- used by variants -----------------------------------------------------------

#: last words that say what kind of thing a name is, not which one, by label
VARIANT_TAILS = {
    "METHOD": frozenset(
        """model method algorithm approach framework architecture technique system
        paradigm scheme procedure strategy toolkit mechanism""".split()
    ),
    "DATASET": frozenset("dataset benchmark corpus suite collection game environment".split()),
    "TASK": frozenset("task problem challenge".split()),
    "METRIC": frozenset("score metric measure".split()),
}

#: last words a concept is named without when its name alone is one of its forms too
#: ("Atari" for "Atari games", "MuJoCo" for "MuJoCo environments"): the kind words of
#: a method that readers leave out of its name (:data:`KIND_TAILS`; "model" and
#: "network" they keep), and every kind word of the other labels
NAMED_WITHOUT_KIND = {
    "METHOD": KIND_TAILS["METHOD"],
    **{label: tails for label, tails in VARIANT_TAILS.items() if label != "METHOD"},
}

#: first words of "X of Y" phrases that are not a noun to move ("number of", "set of")
NOT_OF_HEADS = frozenset(
    """number set kind type sort part lot lack use way amount degree level class family
    version variant combination mixture sequence series pair group collection subset""".split()
)

#: generic heads after a process noun that make it one working part: "parsing
#: algorithm", "classification stage"; not "method", "approach", "technique" or
#: "strategy", which name a kind of method ("other classification methods")
PROCESS_HEADS = frozenset(
    """algorithm procedure stage step mechanism module component model system process
    unit routine""".split()
)

#: agent nouns that name a thing of their own, not "what does the process"
NOT_AGENTS = frozenset(
    """transformer adapter computer container layer paper order border number member
    matter letter filter center user owner""".split()
)

# --- used by similarity ---------------------------------------------------------

VERSION_WORDS = frozenset(
    """
    base large small tiny mini medium huge xl xxl giant nano micro lite plus pro ultra
    v1 v2 v3 v4 v5 i ii iii iv v vi 2d 3d 4d 1d
    """.split()
)

#: stems whose suffixed form means something else ("function" / "functional")
WORD_FORM_EXCEPTIONS = frozenset("function option station element second custom".split())

# --- used by acronym_votes ------------------------------------------------------

#: lowercase words that read like abbreviations but are words ("as", "in", "at")
LOWERCASE_WORDS = frozenset(
    "a an as at be by do go he if in is it me my no of on or so to up us we".split()
)

"""The rule components on sentences like those in real abstracts."""

import pytest


def ents(doc):
    return {(e.text, e.label_) for e in doc.ents}


def proposed(doc):
    return {e.text for e in doc.ents if e._.proposed}


@pytest.mark.parametrize(
    "text, expected",
    [
        ("In this paper, we introduce LADS, a hierarchical approach that learns plans.", {"LADS"}),
        (
            "To address these challenges, we propose a lightweight predictor (Light-DDG), "
            "which adopts a Transformer as the backbone.",
            {"Light-DDG"},
        ),
        ("Only part of the knowledge is distilled, which we term selective KD (SelKD).", {"SelKD"}),
        (
            "To eliminate these drawbacks, we present a simple yet effective IMVC approach, "
            "SIIHPC, in this work.",
            {"SIIHPC"},
        ),
        (
            "To address this, we propose EmbedLLM, a framework designed to learn representations of LLMs.",
            {"EmbedLLM"},
        ),
        (
            "We propose a novel solution, bootstrapped training of score-conditioned generator "
            "(BootGen) algorithm.",
            {"BootGen"},
        ),
    ],
)
def test_proposed_names_are_found(rules_nlp, text, expected):
    assert expected <= proposed(rules_nlp(text))


@pytest.mark.parametrize(
    "text, name",
    [
        (
            'Our method, termed "Composition through Decomposition", involves two steps.',
            "Composition through Decomposition",
        ),
        (
            "We call this approach “look-alike clustering” and show it helps.",
            "look-alike clustering",
        ),
    ],
)
def test_a_quoted_name_after_a_naming_verb_is_proposed_whole(rules_nlp, text, name):
    assert name in proposed(rules_nlp(text))


def test_a_quoted_name_replaces_the_cuts_the_ner_made_inside_it(rules_nlp):
    from spacy.tokens import Span

    doc = rules_nlp.make_doc('Our method, termed "Composition through Decomposition", works.')
    for name, component in rules_nlp.pipeline:
        if name == "paperkg_proposals":
            doc.ents = [Span(doc, 5, 6, label="METHOD")]  # the NER cut "Composition"
            doc = component(doc)
            break
        doc = component(doc)
    assert ents(doc) == {("Composition through Decomposition", "METHOD")}
    assert proposed(doc) == {"Composition through Decomposition"}


@pytest.mark.parametrize(
    "text, used",
    [
        ("We fine-tune BERT on the SQuAD dataset.", "BERT"),
        ("Prior work proposed GraphSAGE for inductive learning.", "GraphSAGE"),
        ("We propose EmbedLLM, a framework designed to learn representations of LLMs.", "LLMs"),
        ("We propose to use ResNet-50 as the encoder.", "ResNet-50"),
        ("We propose a new method for reinforcement learning (RL) agents.", "RL"),
    ],
)
def test_used_names_are_not_proposed(nlp, text, used):
    assert used not in proposed(nlp(text))


@pytest.mark.parametrize(
    "text, long, short",
    [
        ("We train a graph neural network (GNN) on molecules.", "graph neural network", "GNN"),
        (
            "Knowledge Distillation (KD) has been a popular paradigm.",
            "Knowledge Distillation",
            "KD",
        ),
        (
            "We introduce Semi-Supervised Diffusion Maps (SSDM), a new method.",
            "Semi-Supervised Diffusion Maps",
            "SSDM",
        ),
        ("Rotary Positional Encodings (RoPE) are popular.", "Rotary Positional Encodings", "RoPE"),
        # a parenthesis that says it gives the short name
        ("We propose a Graph Anomaly Detector (GAD for short).", "Graph Anomaly Detector", "GAD"),
        ("We use a Mixture of Experts (or MoE) here.", "Mixture of Experts", "MoE"),
        ("It is a Vision Transformer (or ViT, in short).", "Vision Transformer", "ViT"),
        ("We use Operations Research (OR for short) here.", "Operations Research", "OR"),
    ],
)
def test_acronym_definitions(nlp, text, long, short):
    doc = nlp(text)
    assert (long, short) in {(lf.text, sf.text) for lf, sf in doc._.acronyms}


@pytest.mark.parametrize(
    "text",
    [
        "The model (which is large) works well (see Section 3).",
        # an alternative, not a short name: its letters are not in the words before
        "We train it with Adam (or SGD) here.",
        "It needs two layers (or more) and (or 2) of them.",
    ],
)
def test_text_in_parentheses_that_is_not_an_acronym_is_ignored(nlp, text):
    assert nlp(text)._.acronyms == []


def test_defined_acronym_shares_the_label_of_its_long_form(nlp):
    doc = nlp("Knowledge distillation (KD) trains a student. KD is cheap.")
    long_form = [e.label_ for e in doc.ents if e.text.startswith("Knowledge distillation")]
    short = [e.label_ for e in doc.ents if e.text == "KD"]
    assert long_form == ["METHOD"] and short and set(short) == {"METHOD"}


@pytest.mark.parametrize(
    "text, datasets",
    [
        (
            "Our methods improve results across datasets, including CIFAR-10, CIFAR-100, and ImageNet-100.",
            {"CIFAR-10", "CIFAR-100", "ImageNet-100"},
        ),
        ("Experiments on the MS-COCO dataset show gains.", {"MS-COCO"}),
        ("We report accuracy on SST-2 and MNLI-3 benchmarks.", {"SST-2", "MNLI-3"}),
    ],
)
def test_dataset_cues(rules_nlp, text, datasets):
    found = {t for t, label in ents(rules_nlp(text)) if label == "DATASET"}
    assert datasets <= found


def test_a_model_name_with_digits_outside_a_dataset_context_is_not_a_dataset(nlp):
    doc = nlp("We fine-tune GPT-3 with a new prompting strategy.")
    assert ("GPT-3", "DATASET") not in ents(doc)


@pytest.mark.parametrize(
    "generic", ["our method", "this approach", "the proposed framework", "existing methods"]
)
def test_generic_phrases_are_not_concepts(nlp, generic):
    doc = nlp(f"We show that {generic} works on graphs.")
    assert not any(generic.split()[-1] == e.text.split()[-1] for e in doc.ents)


def test_a_name_that_only_says_the_kind_of_approach_is_not_proposed(nlp):
    doc = nlp(
        "To eliminate these drawbacks, we present a simple yet effective IMVC approach, SIIHPC, in this work."
    )
    assert "IMVC" not in proposed(doc)


@pytest.mark.parametrize(
    "phrase", ["real-world datasets", "large-scale datasets", "synthetic and real-world datasets"]
)
def test_unnamed_datasets_are_not_concepts(nlp, phrase):
    """The NER may tag them (SciERC marks any data); the concept stage leaves them out."""
    from paperkg.extract.corpus import decide_concepts
    from paperkg.extract.corpus.labels import unify_concept_labels
    from paperkg.extract.nlp.extractor import extract_mentions
    from paperkg.extract.resolve import resolve_concepts
    from paperkg.records import Paper

    text = f"Experiments on {phrase} and on CIFAR-10 confirm the gains."
    results = extract_mentions(nlp, [Paper(id="p", abstract=text, text=text, source="t")])
    resolution = decide_concepts(results, unify_concept_labels(resolve_concepts(results)))
    datasets = [c.name for c in resolution.concepts.values() if c.label == "Dataset"]
    assert datasets == ["CIFAR-10"]


@pytest.mark.parametrize(
    "text, phrase",
    [
        ("This improves understanding of the model.", "understanding"),
        ("Learning from data is hard.", "Learning"),
        ("The model reaches high accuracy.", "high accuracy"),
    ],
)
def test_bare_or_generic_phrases_are_not_concepts(nlp, text, phrase):
    assert phrase not in {e.text for e in nlp(text).ents}


@pytest.mark.parametrize(
    "text, field",
    [("We evaluate on standard RL benchmarks.", "RL"), ("We release three NLP datasets.", "NLP")],
)
def test_a_field_naming_a_kind_of_dataset_is_not_a_dataset(nlp, text, field):
    assert (field, "DATASET") not in ents(nlp(text))


def test_a_modified_task_head_is_a_task(nlp):
    doc = nlp("We study image generation and text classification.")
    assert {("image generation", "TASK"), ("text classification", "TASK")} <= ents(doc)


@pytest.mark.parametrize(
    "text, long, short",
    [
        ("We study in-context learning (ICL) in transformers.", "in-context learning", "ICL"),
        (
            "We fine-tune ULMFiT (Universal Language Model Fine-tuning) on reviews.",
            "Universal Language Model Fine-tuning",
            "ULMFiT",
        ),
        # a Greek letter spelt with its Latin one
        (
            "We propose a lightweight ΔΔG predictor (Light-DDG) for mutations.",
            "lightweight ΔΔG predictor",
            "Light-DDG",
        ),
    ],
)
def test_more_acronym_definitions(nlp, text, long, short):
    assert (long, short) in {(lf.text, sf.text) for lf, sf in nlp(text)._.acronyms}


def test_a_title_case_name_keeps_its_first_word(nlp):
    doc = nlp("We build on Multiple Instance Learning (MIL) for pathology.")
    assert "Multiple Instance Learning" in {e.text for e in doc.ents}


def test_masked_autoencoders_are_not_a_metric(nlp):
    doc = nlp("Masked Autoencoders (MAE) learn visual representations.")
    assert not any(e.label_ == "METRIC" for e in doc.ents)


def test_one_name_gets_one_label_within_an_abstract(nlp):
    doc = nlp(
        "Rotary Positional Encodings (RoPE) are popular. We study RoPE in depth. "
        "We mathematically prove behaviours of RoPE and propose a modification of RoPE."
    )
    assert (
        len({e.label_ for e in doc.ents if e.text in {"RoPE", "Rotary Positional Encodings"}}) == 1
    )


@pytest.mark.parametrize(
    "text",
    ["It is on par with the best of 300 datasets.", "We obtain 89.7× inference acceleration."],
)
def test_quantities_are_not_mentions(nlp, text):
    from paperkg.extract.nlp.mentions import mentions_from_doc

    mentions, _ = mentions_from_doc(nlp(text))
    assert not any(m.text[0].isdigit() for m in mentions)


@pytest.mark.parametrize(
    "text, name",
    [
        ("We parse the French Treebank with it.", "French Treebank"),
        ("Results on the Customer Review Dataset improve.", "Customer Review Dataset"),
        ("Experiments on the MS-COCO dataset show gains.", "MS-COCO"),
    ],
)
def test_dataset_names_keep_a_head_that_is_part_of_the_name(nlp, text, name):
    assert (name, "DATASET") in ents(nlp(text))


@pytest.mark.parametrize(
    "text, long_form, short, label",
    [
        ("We train a graph neural network (GNN) on molecules.", "graph neural network", "GNN",
         "METHOD"),
        ("We study multi-object tracking (MOT) in crowds.", "multi-object tracking", "MOT",
         "TASK"),
    ],
)  # fmt: skip
def test_a_defined_acronym_the_ner_missed_is_labelled_by_its_long_forms_head(
    nlp, text, long_form, short, label
):
    assert {(long_form, label), (short, label)} <= ents(acronyms_only(nlp, text))


def test_a_defined_acronym_with_a_generic_long_form_is_not_a_concept(nlp):
    assert not ents(acronyms_only(nlp, "We present a simple new method (SNM) for it."))


def acronyms_only(nlp, text):
    """``text`` tagged, then through the acronym component alone (no NER, no other rule)."""
    stock = ["tok2vec", "tagger", "senter", "attribute_ruler", "lemmatizer"]
    with nlp.select_pipes(enable=[*stock, "paperkg_acronyms"]):
        return nlp(text)


@pytest.mark.parametrize(
    "text, found, expected",
    [
        ("Results on the Customer Review Dataset improve.", ["Customer Review"],
         {"Customer Review Dataset"}),
        ("Results on the Penn Treebank corpus improve.", ["Penn Treebank corpus"],
         {"Penn Treebank corpus"}),
        ("Results on the MNIST CIFAR-10 benchmark improve.", ["MNIST", "CIFAR-10"],
         {"MNIST", "CIFAR-10"}),
    ],
)  # fmt: skip
def test_a_dataset_cue_extends_one_dataset_the_ner_found_and_never_joins_two(
    nlp, text, found, expected
):
    from paperkg.extract.nlp.components import DatasetCues

    stock = ["tok2vec", "tagger", "senter", "attribute_ruler", "lemmatizer"]
    with nlp.select_pipes(enable=stock):
        doc = nlp(text)
    doc.ents = [
        doc.char_span(text.index(name), text.index(name) + len(name), label="DATASET")
        for name in found
    ]
    assert {e.text for e in DatasetCues()(doc).ents} == expected


def _tagged(nlp, text, first_mentions):
    """``text`` with POS tags and, as its only entities, the first occurrence of each
    (phrase, label) in ``first_mentions``: what the NER found, before paperkg_repeats."""
    with nlp.select_pipes(enable=["tok2vec", "tagger", "attribute_ruler"]):
        doc = nlp(text)
    spans = []
    for phrase, label in first_mentions:
        start = text.index(phrase)
        spans.append(doc.char_span(start, start + len(phrase), label=label))
    doc.ents = spans
    return doc


def test_a_name_labelled_once_is_labelled_at_every_occurrence(nlp):
    from paperkg.extract.nlp.components import RepeatMentions

    text = "The parser is fast. We evaluate the Parser on news and compare the parser with others."
    doc = RepeatMentions()(_tagged(nlp, text, [("parser", "METHOD")]))
    assert [(e.text, e.label_, e.start_char) for e in doc.ents] == [
        ("parser", "METHOD", 4),
        ("Parser", "METHOD", text.index("Parser")),
        ("parser", "METHOD", text.rindex("parser")),
    ]


def test_a_repeat_inside_a_longer_compound_is_not_labelled(nlp):
    from paperkg.extract.nlp.components import RepeatMentions

    text = "We study translation. Machine translation systems and translation-based methods exist."
    doc = RepeatMentions()(_tagged(nlp, text, [("translation", "TASK")]))
    assert [e.start_char for e in doc.ents] == [text.index("translation")]


def test_a_name_with_capitals_repeats_only_with_the_same_capitals(nlp):
    from paperkg.extract.nlp.components import RepeatMentions

    text = "We use SAM for masks. SAM is large, and sam is a word."
    doc = RepeatMentions()(_tagged(nlp, text, [("SAM", "METHOD")]))
    assert [e.text for e in doc.ents] == ["SAM", "SAM"]


def test_repeats_never_change_existing_entities(nlp):
    from paperkg.extract.nlp.components import RepeatMentions

    text = "BERT is strong. We fine-tune BERT-large, not BERT."
    doc = RepeatMentions()(_tagged(nlp, text, [("BERT", "METHOD"), ("BERT-large", "METHOD")]))
    assert [e.text for e in doc.ents] == ["BERT", "BERT-large", "BERT"]


def test_the_default_pipeline_labels_repeated_names_before_shaping_them(nlp):
    assert nlp.pipe_names[-2:] == ["paperkg_repeats", "paperkg_mention_shape"]


@pytest.mark.parametrize(
    ("tagged", "expected"),
    [
        # the tagger dropped the first word of the definition
        ("KD (SelKD)", "selective KD (SelKD)"),
        ("KD", "selective KD"),
        # already whole, or not inside the long form: unchanged
        ("selective KD", "selective KD"),
        ("distilled", "distilled"),
    ],
)
def test_a_mention_cut_inside_a_definition_starts_where_the_long_form_does(nlp, tagged, expected):
    from paperkg.extract.nlp.components.acronyms import AcronymDetector

    text = "Knowledge can be distilled, which we term selective KD (SelKD) here."
    doc = AcronymDetector(share_labels=False)(_tagged(nlp, text, [(tagged, "METHOD")]))
    assert [e.text for e in doc.ents] == [expected]


@pytest.mark.parametrize(
    ("tagged", "expected"),
    [
        # a fragment of the long form before the cut mention is part of the same name
        (["lightweight", "DDG predictor (Light-DDG)"], ["lightweight DDG predictor (Light-DDG)"]),
        # a mention reaching out of the long form is not: nothing changes
        (
            ["a lightweight", "DDG predictor (Light-DDG)"],
            ["a lightweight", "DDG predictor (Light-DDG)"],
        ),
    ],
)
def test_a_fragment_of_a_definition_is_absorbed_by_the_widened_mention(nlp, tagged, expected):
    from paperkg.extract.nlp.components.acronyms import AcronymDetector

    text = "We propose a lightweight DDG predictor (Light-DDG), which adopts a Transformer."
    tagged_doc = _tagged(nlp, text, [(t, "METHOD") for t in tagged])
    doc = AcronymDetector(share_labels=False)(tagged_doc)
    assert [e.text for e in doc.ents] == expected


@pytest.mark.parametrize(
    ("text", "tagged", "expected"),
    [
        ("We propose xTrimoBiDock (or BiDock for short).", "BiDock for short", "BiDock"),
        ("We propose a new detector (ADet, in short).", "ADet, in short", "ADet"),
        # a mention that is nothing but the words stays as tagged
        ("Its reply was, in short, long.", "in short", "in short"),
    ],
)
def test_a_mention_ends_before_the_words_that_say_it_is_a_short_name(nlp, text, tagged, expected):
    from paperkg.extract.nlp.components.acronyms import AcronymDetector

    doc = AcronymDetector(share_labels=False)(_tagged(nlp, text, [(tagged, "METHOD")]))
    assert [e.text for e in doc.ents] == [expected]


def test_a_name_inside_a_definition_keeps_its_own_mention(nlp):
    # "Domain Reweighting" is a concept of its own, not a cut-off modifier
    from paperkg.extract.nlp.components.acronyms import AcronymDetector

    text = "We propose Domain Reweighting with Minimax Optimization (DoReMi) for it."
    tagged = ["Domain Reweighting", "Minimax Optimization (DoReMi)"]
    doc = AcronymDetector(share_labels=False)(_tagged(nlp, text, [(t, "METHOD") for t in tagged]))
    assert [e.text for e in doc.ents] == tagged


@pytest.mark.parametrize(
    "tagged, is_proposed",
    [
        ("global convergence theory", False),  # a finding, not a thing one uses
        ("NTK theory", True),  # a finding with a name of its own
        ("graph pencil method", True),
    ],
)
def test_a_finding_is_not_proposed_unless_it_has_a_name(nlp, tagged, is_proposed):
    from paperkg.extract.nlp.components.proposals import ProposalDetector

    text = f"We present a {tagged} of shallow Transformers."
    analysis = ["tok2vec", "tagger", "senter", "attribute_ruler", "lemmatizer"]
    with nlp.select_pipes(enable=[p for p in analysis if p in nlp.pipe_names]):
        doc = nlp(text)  # lemmas and sentences: the trigger is the verb "present"
    start = text.index(tagged)
    doc.ents = [doc.char_span(start, start + len(tagged), label="METHOD")]
    doc = ProposalDetector()(doc)
    assert [(e.text, e._.proposed) for e in doc.ents] == [(tagged, is_proposed)]


def test_a_model_evaluated_on_stays_a_model(nlp):
    """ "evaluated on GPT-4" does not make GPT-4 a dataset; an untagged "on CIFAR-10" does."""
    from paperkg.extract.nlp.components import DatasetCues

    text = "Experiments evaluate on GPT-4 and on CIFAR-10."
    analysis = ["tok2vec", "tagger", "senter", "attribute_ruler", "lemmatizer"]
    with nlp.select_pipes(enable=[p for p in analysis if p in nlp.pipe_names]):
        doc = nlp(text)
    start = text.index("GPT-4")
    doc.ents = [doc.char_span(start, start + 5, label="METHOD")]
    doc = DatasetCues()(doc)
    assert ents(doc) == {("GPT-4", "METHOD"), ("CIFAR-10", "DATASET")}

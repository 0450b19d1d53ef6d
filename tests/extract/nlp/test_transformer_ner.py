"""The transformer NER component: windows of word pieces, BIO decoding, the shipped model."""

import json
import shutil

import numpy as np
import pytest
import spacy

from paperkg.errors import ExtractionError
from paperkg.extract.nlp.components.transformer_ner import (
    TransformerNER,
    _allowed_transitions,
    viterbi,
)
from paperkg.extract.nlp.pipeline import SHIPPED_TRANSFORMER_DIR, load_pipeline

TAGS = ["O", "B-METHOD", "I-METHOD", "B-TASK", "I-TASK"]
ALLOWED = _allowed_transitions(TAGS)


def tag_names(ids):
    return [TAGS[i] for i in ids]


@pytest.mark.parametrize(
    ("best_per_word", "expected"),
    [
        # argmax is already a valid sequence: kept
        (["B-METHOD", "I-METHOD", "O"], ["B-METHOD", "I-METHOD", "O"]),
        # an I- after O is not allowed; the cheapest fix is a B-
        (["O", "I-TASK", "I-TASK"], ["O", "B-TASK", "I-TASK"]),
        # a sequence cannot start inside a mention
        (["I-METHOD", "O"], ["B-METHOD", "O"]),
        # I-TASK cannot continue a METHOD
        (["B-METHOD", "I-TASK"], ["B-METHOD", "I-METHOD"]),
    ],
)
def test_viterbi_repairs_impossible_bio_sequences(best_per_word, expected):
    # each word: its argmax tag scores 0, its runner-up (the B- of the same type, or
    # the tag that continues the previous word) -1, everything else -5
    scores = np.full((len(best_per_word), len(TAGS)), -5.0)
    for i, tag in enumerate(best_per_word):
        if tag.startswith("I-"):
            scores[i, TAGS.index("B-" + tag[2:])] = -1.0
            if i and best_per_word[i - 1] != "O":
                scores[i, TAGS.index("I-" + best_per_word[i - 1][2:])] = -1.0
        scores[i, TAGS.index(tag)] = 0.0
    assert tag_names(viterbi(scores, ALLOWED)) == expected


def scores_for(best_per_word, runner_up):
    """Scores where each word's best tag scores 0 and ``runner_up[i]`` -1 (others -5)."""
    scores = np.full((len(best_per_word), len(TAGS)), -5.0)
    for i, (best, second) in enumerate(zip(best_per_word, runner_up, strict=True)):
        scores[i, TAGS.index(second)] = -1.0
        scores[i, TAGS.index(best)] = 0.0
    return scores


def test_viterbi_never_ends_a_mention_on_a_no_end_word():
    # "detection and description against previous": the tagger runs each name
    # on into the next word ("detection and", "description against")
    best = ["B-TASK", "I-TASK", "B-TASK", "I-TASK", "O"]
    second = ["O", "O", "O", "O", "I-TASK"]
    scores = scores_for(best, second)
    assert tag_names(viterbi(scores, ALLOWED)) == best
    no_end = [False, True, False, True, False]
    assert tag_names(viterbi(scores, ALLOWED, no_end)) == ["B-TASK", "O", "B-TASK", "O", "O"]


def test_viterbi_lets_a_mention_run_through_a_no_end_word():
    # "detection and description algorithm": one name, "and" inside it
    best = ["B-METHOD", "I-METHOD", "I-METHOD", "I-METHOD"]
    scores = scores_for(best, ["O"] * 4)
    no_end = [False, True, False, False]
    assert tag_names(viterbi(scores, ALLOWED, no_end)) == best


def test_viterbi_no_end_word_at_the_end_of_the_window_is_outside():
    scores = scores_for(["B-TASK", "I-TASK"], ["O", "O"])
    assert tag_names(viterbi(scores, ALLOWED, [False, True])) == ["B-TASK", "O"]


def test_allowed_transitions_only_restrict_inside_tags():
    assert ALLOWED[TAGS.index("O"), TAGS.index("B-TASK")]
    assert ALLOWED[TAGS.index("B-TASK"), TAGS.index("I-TASK")]
    assert ALLOWED[TAGS.index("I-TASK"), TAGS.index("I-TASK")]
    assert not ALLOWED[TAGS.index("O"), TAGS.index("I-TASK")]
    assert not ALLOWED[TAGS.index("B-METHOD"), TAGS.index("I-TASK")]


@pytest.fixture(scope="module")
def nlp():
    return load_pipeline("accurate")


@pytest.fixture(scope="module")
def ner(nlp):
    return nlp.get_pipe("transformer_ner")


def test_accurate_names_the_transformer_pipeline(nlp):
    assert "transformer_ner" in nlp.pipe_names
    assert nlp.get_pipe_meta("transformer_ner").factory == "paperkg_transformer_ner"
    assert "ner" not in nlp.pipe_names
    # the rule components run after it, the mention shapes last
    assert nlp.pipe_names[-2:] == ["paperkg_repeats", "paperkg_mention_shape"]


def test_shipped_model_finds_methods_datasets_and_tasks(nlp):
    doc = nlp(
        "We fine-tune BERT and a graph neural network on the CIFAR-100 and ImageNet "
        "datasets for image classification and machine translation."
    )
    found = {(e.text, e.label_) for e in doc.ents}
    assert ("BERT", "METHOD") in found
    assert ("graph neural network", "METHOD") in found
    assert ("CIFAR-100", "DATASET") in found
    assert ("image classification", "TASK") in found
    assert ("machine translation", "TASK") in found


def test_windows_cover_every_word_once_and_respect_the_length(nlp, ner):
    text = " ".join(
        f"Sentence {i} describes a hierarchical variational autoencoder for segmentation."
        for i in range(60)
    )
    doc = nlp.make_doc(text)
    for _, proc in nlp.pipeline[: nlp.pipe_names.index("transformer_ner")]:
        doc = proc(doc)
    windows = ner.windows(doc)
    assert len(windows) > 1
    assert all(len(w.piece_ids) <= ner.max_pieces for w in windows)
    covered = [token for w in windows for token, _ in w.words]
    assert covered == [t.i for t in doc if not t.is_space]
    head = [ner._special["cls_id"], *ner._prefix_ids]  # [CLS] and the style marker
    for w in windows:  # each word points at a real piece between the head and [SEP]
        assert w.piece_ids[: len(head)] == head
        assert all(len(head) <= position < len(w.piece_ids) - 1 for _, position in w.words)


def test_a_sentence_longer_than_a_window_is_split_between_words(nlp, ner):
    doc = nlp.make_doc(" ".join(["transformer"] * 600))  # no sentence boundaries
    windows = ner.windows(doc)
    assert len(windows) >= 3
    assert sum(len(w.words) for w in windows) == 600


def test_whitespace_and_empty_docs_are_safe(nlp):
    assert list(nlp("").ents) == []
    doc = nlp("We use BERT.\n\n   It helps.")
    assert [e.text for e in doc.ents if e.label_ == "METHOD"] == ["BERT"]


def test_pipe_and_call_agree(nlp):
    texts = [
        "We propose LoRA, a low-rank adaptation method for large language models.",
        "Results on SQuAD show gains in question answering.",
        "",
    ]
    one_by_one = [[(e.text, e.label_) for e in nlp(t).ents] for t in texts]
    piped = [[(e.text, e.label_) for e in d.ents] for d in nlp.pipe(texts, batch_size=2)]
    assert piped == one_by_one


def test_pipeline_round_trips_through_disk(nlp, tmp_path):
    text = "We evaluate ResNet-50 on ImageNet for object detection."
    before = [(e.start, e.end, e.label_) for e in nlp(text).ents]
    nlp.to_disk(tmp_path / "copy")
    reloaded = spacy.load(tmp_path / "copy")
    assert [(e.start, e.end, e.label_) for e in reloaded(text).ents] == before


def test_a_pipeline_saved_with_a_removed_component_still_loads_without_it(nlp, tmp_path):
    nlp.to_disk(tmp_path / "old")
    config = tmp_path / "old" / "config.cfg"
    text = config.read_text()  # as paperkg saved it while it had the noun-phrase fallback
    text = text.replace('"transformer_ner", ', '"transformer_ner", "paperkg_term_rules", ', 1)
    text = text.replace("disabled = []", 'disabled = ["paperkg_term_rules"]', 1)
    assert text.count("paperkg_term_rules") == 2  # the replacements above matched
    config.write_text(text + '\n[components.paperkg_term_rules]\nfactory = "paperkg_term_rules"\n')
    old = load_pipeline(tmp_path / "old")
    assert old.pipe_names == nlp.pipe_names
    assert "paperkg_term_rules" not in old.component_names


def test_shipped_model_is_small_and_says_what_it_was_trained_on():
    size = sum(p.stat().st_size for p in SHIPPED_TRANSFORMER_DIR.rglob("*") if p.is_file())
    assert size < 50_000_000
    meta = json.loads((SHIPPED_TRANSFORMER_DIR / "meta.json").read_text(encoding="utf-8"))
    assert meta["license"] == "GPL-3.0"  # trained on SciER
    assert meta["author"] != "Explosion"  # not the sourced English pipeline's authors
    assert "all-MiniLM-L6-v2" in meta["licence_note"]
    assert set(meta["training_data"]) == {"scierc", "scier", "tdmsci", "scirex", "annotated"}
    assert meta["training_data"]["scirex"]["licence"] == "Apache-2.0"
    assert meta["training_data"]["annotated"]["test_docs"] == 160  # NeurIPS 2023, held out
    # the epoch was chosen on held-back parts of train; dev and test were scored once, at the end
    scores = meta["paperkg_scores"]
    assert {"scierc_select", "scier_select", "tdmsci_select", "annotated_select"} <= set(scores)
    assert scores["scierc_dev"]["micro"]["f1"] > 0.5
    assert scores["annotated_test"]["micro"]["f1"] > 0.5
    # each set in its own style, and again as a build reads it
    assert set(meta["training_procedure"]["scores_in_users_style"]) >= {"scierc_dev", "scier_dev"}


def test_the_shipped_model_reads_abstracts_in_the_in_domain_style_unless_told(ner):
    # trained with a marker per corpus; the marker after [CLS] picks the conventions
    assert set(ner._styles) == {"scierc", "scier", "tdmsci", "scirex", "annotated"}
    assert ner.style == "annotated" and ner._prefix_ids == ner._styles["annotated"]
    full_text = TransformerNER(style="scier").load(SHIPPED_TRANSFORMER_DIR / "transformer_ner")
    doc = spacy.blank("en")("We train BERT.")
    assert full_text.windows(doc)[0].piece_ids[1:2] == ner._styles["scier"]
    with pytest.raises(
        ExtractionError, match="no style 'patents'.*annotated, scier, scierc, scirex, tdmsci"
    ):
        TransformerNER(style="patents").load(SHIPPED_TRANSFORMER_DIR / "transformer_ner")


def test_a_folder_without_a_model_is_a_clear_error(tmp_path):
    with pytest.raises(ExtractionError, match="not a paperkg transformer NER folder"):
        TransformerNER().load(tmp_path)


def test_tagging_without_a_model_says_what_to_do():
    nlp = spacy.blank("en")
    nlp.add_pipe("paperkg_transformer_ner")
    with pytest.raises(ExtractionError, match="no model loaded"):
        nlp("We use BERT.")


@pytest.mark.parametrize(
    ("text", "start", "end", "expected"),
    [
        ("selective KD ( SelKD ) works", 0, 4, "selective KD"),  # stops inside the brackets
        ("selective KD ( SelKD ) works", 0, 5, "selective KD ( SelKD )"),  # balanced: kept
        ("KD ) and more", 1, 3, "and"),  # a leading closing bracket is dropped
        ("( SelKD", 0, 1, None),  # nothing left
        ("a graph network .", 0, 4, "a graph network"),  # trailing punctuation
    ],
)
def test_spans_never_keep_half_a_bracket(text, start, end, expected):
    from paperkg.extract.nlp.components.transformer_ner import _balanced

    doc = spacy.blank("en").make_doc(text)
    span = _balanced(doc, start, end)
    assert (doc[span[0] : span[1]].text if span else None) == expected


def test_no_mention_ends_on_a_function_word(nlp, ner):
    # a runner that tags "detection"/"description" B-TASK and runs on into the
    # next word: the decoder must not end either name on "and" or "against"
    text = "Our results improve both detection and description against previous methods."
    vocab = ner._tokenizer.get_vocab()
    begin = {vocab["detection"], vocab["description"]}
    run_on = {vocab["and"], vocab["against"]}
    o, b, i = (ner.labels.index(t) for t in ("O", "B-TASK", "I-TASK"))

    def runner(input_ids, attention_mask):
        logits = np.zeros((*input_ids.shape, len(ner.labels)), dtype=np.float32)
        logits[..., o] = 4.0
        logits[np.isin(input_ids, list(begin)), b] = 6.0
        logits[np.isin(input_ids, list(run_on)), i] = 5.0
        return logits

    tagger = TransformerNER().load(SHIPPED_TRANSFORMER_DIR / "transformer_ner", runner=runner)
    doc = tagger(nlp(text))
    assert [(e.text, e.label_) for e in doc.ents] == [
        ("detection", "TASK"),
        ("description", "TASK"),
    ]
    # a capitalised acronym the POS tagger reads as a function word may still end a name
    doc = tagger(nlp("We evaluate on the MUC and description against it."))
    assert doc.ents[-1].text == "description"


def test_a_mention_cost_drops_the_mentions_the_model_is_unsure_of(nlp, ner):
    # "detection" starts a TASK by 3 nats over O and "model" goes on inside it by 3
    # more; "description" is a TASK by half a nat
    vocab = ner._tokenizer.get_vocab()
    o, b, i = (ner.labels.index(t) for t in ("O", "B-TASK", "I-TASK"))

    def runner(input_ids, attention_mask):
        logits = np.zeros((*input_ids.shape, len(ner.labels)), dtype=np.float32)
        logits[..., o] = 4.0
        logits[input_ids == vocab["detection"], b] = 7.0
        logits[input_ids == vocab["model"], i] = 7.0
        logits[input_ids == vocab["description"], b] = 4.5
        return logits

    tagger = TransformerNER().load(SHIPPED_TRANSFORMER_DIR / "transformer_ner", runner=runner)

    def mentions(cost):
        tagger.mention_cost = cost  # read at each decoding
        doc = tagger(nlp("We study detection model and description here."))
        return [e.text for e in doc.ents]

    assert mentions(0.0) == ["detection model", "description"]
    # one nat a mention: the name the model is unsure of goes, the other stays whole
    assert mentions(1.0) == ["detection model"]
    # the cost is paid once where a mention starts: 3 + 3 nats outweigh a cost of 5
    assert mentions(5.0) == ["detection model"]
    assert mentions(7.0) == []


def test_the_shipped_pipeline_sets_its_mention_cost(ner, tmp_path):
    # chosen on the in-domain select split (bench/mention_cost.py)
    assert ner.mention_cost > 0
    # a pipeline saved without the setting (by an older paperkg) decodes as trained
    old = tmp_path / "old"
    shutil.copytree(SHIPPED_TRANSFORMER_DIR, old)
    config = old / "config.cfg"
    lines = config.read_text(encoding="utf-8").splitlines(keepends=True)
    config.write_text("".join(k for k in lines if not k.startswith("mention_cost")))
    assert spacy.load(old).get_pipe("transformer_ner").mention_cost == 0.0


def test_a_mention_cost_that_is_no_number_is_a_clear_error():
    with pytest.raises(ExtractionError, match="mention_cost must be a number of nats"):
        TransformerNER(mention_cost=float("nan"))

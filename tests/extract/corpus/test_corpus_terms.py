"""The corpus as its own gazetteer: a phrase tagged in other abstracts is found here too."""

import random

from paperkg.extract.corpus import corpus_terms
from paperkg.extract.corpus.corpus_terms import Occurrences, find_corpus_terms, with_corpus_terms
from paperkg.records import Mention, Paper, PaperMentions


def paper(number, text, tagged=(), label="METHOD"):
    """A paper whose extractor tagged the first occurrence of each phrase in ``tagged``."""
    mentions = []
    for phrase in tagged:
        start = text.index(phrase)
        mentions.append(Mention(phrase, label, start, start + len(phrase), text))
    return PaperMentions(
        Paper(id=f"p{number}", abstract=text, text=text, source=f"t#{number}"), mentions
    )


def added(results, **options):
    """The mentions the corpus terms add (the NER's own all kept)."""
    out = with_corpus_terms(results, find_corpus_terms(results, **options))
    kept = [m for r in out for m in r.mentions if not m.corpus_match]
    assert kept == [m for r in results for m in r.mentions]
    return [(r.paper.id, m.text, m.label) for r in out for m in r.mentions if m.corpus_match]


TAGGED = [
    paper(i, f"We train graph neural networks on task {i}.", ["graph neural networks"])
    for i in range(3)
]


def test_a_phrase_tagged_in_other_papers_is_found_where_the_ner_missed_it():
    text = "Graph neural networks fail here. A graph neural network is slower than MLPs."
    missed = paper(9, text, ["MLPs"])  # the NER's mention stays among those added
    results = [*TAGGED, missed]
    assert added(results) == [
        ("p9", "Graph neural networks", "METHOD"),
        ("p9", "graph neural network", "METHOD"),
    ]
    out = with_corpus_terms(results, find_corpus_terms(results))
    first = out[-1].mentions[0]
    assert (first.start, first.end, first.sentence) == (0, 21, "Graph neural networks fail here.")


def test_a_phrase_the_ner_rarely_tags_where_it_occurs_is_not_a_term():
    untagged = [paper(10 + i, "We train graph neural networks again.") for i in range(8)]
    # tagged in 3 of the 11 papers that say it: under the 30% share
    assert added([*TAGGED, *untagged]) == []
    assert len(added([*TAGGED, *untagged], min_share=0.25)) == 8


def test_a_phrase_tagged_in_fewer_than_three_papers_is_not_a_term():
    assert added([*TAGGED[:2], paper(9, "Graph neural networks fail.")]) == []


def test_one_word_terms_need_half_the_papers_that_use_the_word():
    tagged = [paper(i, f"Attention helps {i}.", ["Attention"]) for i in range(3)]
    assert added([*tagged, *(paper(10 + i, "We pay attention.") for i in range(3))]) != []
    assert added([*tagged, *(paper(10 + i, "We pay attention.") for i in range(4))]) == []


def test_occurrences_inside_other_mentions_words_or_names_are_left_alone():
    text = (
        "Deep graph neural networks help. We pre-graph neural networks. "
        "We propose Robust Graph Neural Networks (RGNN)."
    )
    inside = paper(9, text, ["Deep graph neural networks"])
    assert added([*TAGGED, inside]) == []


def test_a_name_with_capitals_matches_only_with_its_capitals():
    tagged = [paper(i, f"SAM segments images {i}.", ["SAM"]) for i in range(3)]
    other = paper(9, "We use SAM. The sam is a person.")
    assert added([*tagged, other]) == [("p9", "SAM", "METHOD")]


def test_the_label_is_the_one_the_ner_gave_most_often():
    tagged = [paper(0, "ImageNet is big.", ["ImageNet"], "DATASET")]
    tagged += [paper(i, f"ImageNet {i} is big.", ["ImageNet"], "DATASET") for i in (1, 2)]
    tagged += [paper(3, "ImageNet is a model?", ["ImageNet"], "METHOD")]
    assert added([*tagged, paper(9, "Results on ImageNet.")]) == [("p9", "ImageNet", "DATASET")]


def test_a_paper_that_tags_a_term_and_says_it_again_counts_once_among_those_saying_it():
    text = "We train graph neural networks. Later, graph neural networks win."
    results = [paper(i, text, ["graph neural networks"]) for i in range(3)]
    results.append(paper(3, "Graph neural networks are untagged here."))
    (term,) = find_corpus_terms(results)

    assert (term.tagged_papers, term.containing_papers) == (3, 4)


def test_a_tie_between_labels_goes_to_the_one_the_ner_gave_first():
    results = [paper(0, "We use BERT-large here.", ["BERT-large"], label="DATASET")]
    results += [paper(i, f"We use BERT-large {i}.", ["BERT-large"]) for i in (1, 2)]
    results += [paper(3, "We use BERT-large too.", ["BERT-large"], label="DATASET")]
    (term,) = find_corpus_terms(results)

    assert term.label == "DATASET"


def test_terms_placed_from_the_occurrences_found_are_those_placed_by_reading_again():
    text = (
        "Graph neural networks fail. We pre-graph neural networks, and Robust Graph "
        "Neural Networks (RGNN) and graph neural network training work."
    )
    results = [*TAGGED, paper(9, text), paper(10, "A graph neural network, graph neural nets.")]
    occurrences = Occurrences()
    terms = find_corpus_terms(results, occurrences=occurrences)

    reused = list(with_corpus_terms(results, terms, occurrences))
    assert reused == list(with_corpus_terms(results, terms))
    # not "pre-graph ...", nor inside the name "Robust Graph Neural Networks"
    texts = [m.text for m in reused[-2].mentions]
    assert texts == ["Graph neural networks", "graph neural network"]


def test_the_word_before_a_position_is_the_word_the_whole_text_has_there():
    rng = random.Random(7)
    alphabet = ["a", "B", "_", "'", "’", " ", "-", "(", ".", "é", "9", "  "]
    for _ in range(2000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(1, 30)))
        words = list(corpus_terms._WORD.finditer(text))
        for before, word in zip([None, *words], words, strict=False):
            found = corpus_terms._word_before(text, word.start())
            assert (found and found.span()) == (before and before.span()), text

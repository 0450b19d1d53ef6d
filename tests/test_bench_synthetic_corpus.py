"""Synthetic abstracts recombined from real sentences, for benchmarks at scale."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from synthetic_corpus import synthetic_corpus, write_jsonl

from paperkg.api import build
from paperkg.extract.nlp.cache import ExtractionCache, pipeline_identity
from paperkg.extract.nlp.extractor import extract_mentions
from paperkg.extract.nlp.pipeline import resolve_model
from paperkg.extract.readers import read_inputs

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "iclr2025_abstracts.txt"


@pytest.fixture(scope="module")
def source(nlp):
    """The bundled example and what the shipped pipeline finds in it."""
    return extract_mentions(nlp, read_inputs([EXAMPLE]).papers)


def test_every_mention_points_at_its_name_in_the_paper(source):
    papers = list(synthetic_corpus(source, 200, seed=3))

    assert len({p.paper.id for p in papers}) == 200
    assert all(p.mentions for p in papers)
    for result in papers:
        document = result.paper.document
        for mention in result.mentions:
            assert document[mention.start : mention.end] == mention.text
            assert mention.sentence in document


def test_a_seed_gives_the_same_corpus(source):
    def texts(seed):
        return [p.paper.document for p in synthetic_corpus(source, 50, seed=seed)]

    assert texts(1) == texts(1)
    assert texts(1) != texts(2)


def test_concepts_are_skewed_and_keep_growing_with_the_corpus(source):
    def concepts(n):
        papers = list(synthetic_corpus(source, n, seed=0))
        per_paper = Counter(name for p in papers for name in {m.text for m in p.mentions})
        return len(per_paper), per_paper.most_common(1)[0][1] / n

    small, _ = concepts(1000)
    large, top_share = concepts(4000)
    assert 1.5 * small < large < 4 * small  # a growing vocabulary, sublinear like a field's
    assert 0.01 < top_share < 0.25  # one concept is common, none is everywhere


def test_papers_read_back_as_written_so_the_cache_finds_them(source, tmp_path):
    generated = list(synthetic_corpus(source, 300, seed=5))
    write_jsonl(tmp_path / "synthetic.jsonl", generated)
    read = read_inputs([tmp_path / "synthetic.jsonl"])

    assert not read.skipped
    assert [p.document for p in read.papers] == [g.paper.document for g in generated]

    # the benchmarks put the generated mentions in the cache and build from it, no NER
    cache = ExtractionCache(tmp_path / "cache", identity=pipeline_identity(resolve_model(None)))
    cache.put_many(
        [type(r)(paper, r.mentions) for paper, r in zip(read.papers, generated, strict=True)]
    )
    built = build([tmp_path / "synthetic.jsonl"], cache_dir=tmp_path / "cache")
    assert built.from_cache == 300
    assert built.concept_count > 300

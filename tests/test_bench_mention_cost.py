"""bench/mention_cost.py tries the NER's mention cost on copies of the shipped model."""

import spacy
from mention_cost import with_cost


def test_a_copy_with_a_cost_loads_with_that_cost_and_nothing_else_changed(tmp_path):
    model = with_cost(1.5, tmp_path)
    ner = spacy.load(model).get_pipe("transformer_ner")
    assert ner.mention_cost == 1.5
    assert ner.style == "annotated"  # the line it is written after is kept
    # a copy of a copy replaces the cost, never writes it twice
    again = with_cost(0.5, tmp_path / "again", source=model)
    config = (again / "config.cfg").read_text(encoding="utf-8")
    assert config.count("mention_cost") == 1
    assert spacy.load(again).get_pipe("transformer_ner").mention_cost == 0.5

"""The parts of a gold corpus kept back from training: held out, or kept to select on."""

from pathlib import Path

from paperkg.extract.evaluate import GoldDoc, read_gold, split_for_selection, split_tdmsci

GOLD = Path(__file__).resolve().parents[2] / "fixtures" / "gold"


def test_tdmsci_holdout_is_the_last_fifth():
    docs = read_gold(GOLD / "tiny_tdmsci.conll", "tdmsci") * 5
    train, heldout = split_tdmsci(docs)
    assert (len(train), len(heldout)) == (8, 2)
    assert heldout == docs[8:]


def test_selection_keeps_whole_scier_papers_back():
    docs = [GoldDoc(f"p{i // 3}#{i}", "x") for i in range(60)]  # 20 papers of 3 sentences
    train, select = split_for_selection(docs, "scier")
    assert {d.id.split("#")[0] for d in select} == {"p17", "p18", "p19"}
    assert not {d.id.split("#")[0] for d in train} & {d.id.split("#")[0] for d in select}


def test_a_corpus_too_small_to_keep_a_part_back_is_all_trained_on():
    docs = [GoldDoc(f"a{i}", "x") for i in range(3)]
    assert split_for_selection(docs, "scierc") == (docs, [])

"""The transformer's training data: which windows each stage trains on, and in what batches."""

import numpy as np

from paperkg.extract.training.transformer_data import collate, second_stage_items


def test_second_stage_takes_scierc_once_and_a_share_of_the_rest():
    # doc indices: SciERC's 2 docs repeated twice (0-3), then 6 windows of others
    items = [(None, None, i) for i in range(10)]
    chosen = second_stage_items(items, scierc_docs=2, scierc_repeat=2, others_share=1.0)
    assert [i for *_, i in chosen[:2]] == [0, 1]
    assert len(chosen) == 4 and all(i >= 4 for *_, i in chosen[2:])
    assert len(second_stage_items(items, 2, 2, others_share=0.0)) == 2
    assert len(second_stage_items(items, 2, 2, others_share=9.0)) == 2 + 6


def test_second_stage_takes_the_in_domain_annotations_whole_like_scierc():
    # SciERC's 2 docs repeated twice (0-3), 4 docs of others (4-7), then 2 annotated (8-9)
    items = [(None, None, i) for i in range(10)]
    chosen = second_stage_items(items, 2, 2, others_share=0.0, in_domain_from=8)
    assert [i for *_, i in chosen] == [0, 1, 8, 9]
    chosen = second_stage_items(items, 2, 2, others_share=1.0, in_domain_from=8)
    assert len(chosen) == 8 and {i for *_, i in chosen[4:]} == {4, 5, 6, 7}


def test_a_batch_is_padded_and_its_padding_is_not_learnt():
    batch = [
        (np.array([101, 7, 102]), np.array([-100, 3, -100]), 0),
        (np.array([101, 102]), np.array([-100, -100]), 1),
    ]
    ids, mask, labels = collate(batch, pad_id=0)
    assert ids.tolist() == [[101, 7, 102], [101, 102, 0]]
    assert mask.tolist() == [[1, 1, 1], [1, 1, 0]]
    assert labels.tolist() == [[-100, 3, -100], [-100, -100, -100]]

"""What a build step frees goes back to the system, not only to the C library's heap."""

from __future__ import annotations

import functools

import pytest

from paperkg import api
from paperkg.free_memory import _malloc_trim, return_free_memory

needs_malloc_trim = pytest.mark.skipif(_malloc_trim() is None, reason="no glibc malloc_trim")


def resident_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@needs_malloc_trim
def test_blocks_freed_in_the_middle_of_the_heap_go_back_to_the_system():
    blocks = [bytearray(2000) for _ in range(50_000)]  # 100 MB of blocks over pymalloc's 512 bytes
    # every 16th kept: the freed ones lie between live ones, not at the heap's top
    # (the only part glibc gives back by itself), wherever the heap had room
    kept = blocks[::16]
    del blocks
    before = resident_mb()

    assert return_free_memory()

    assert resident_mb() < before - 50
    assert len(kept) == 3125


def test_without_malloc_trim_it_does_nothing(monkeypatch):
    from paperkg import free_memory

    monkeypatch.setattr(free_memory, "_malloc_trim", lambda: None)

    assert return_free_memory() is False


def test_each_step_of_a_build_hands_back_what_it_freed(tmp_path, monkeypatch):
    """The steps that drop the most (the parsed inputs, the cache's JSON, the corpus
    tables, resolution's tables, the mentions) are each followed by a trim before the
    next step starts: with the map page written in pieces, the peak of a build of
    50,000 papers went 1,299 -> 1,168 MB (bench/memory_steps.py)."""
    steps = ["read_inputs", "_extract", "find_corpus_terms", "add_corpus_term_mentions",
             "mark_title_proposals", "vote_labels", "resolve_concepts", "unify_concept_labels",
             "forget_memoised_names", "build_knowledge_graph"]  # fmt: skip
    events = []

    def noted(name, function, *args, **kwargs):
        result = function(*args, **kwargs)
        events.append(name)
        return result

    for name in steps:
        monkeypatch.setattr(api, name, functools.partial(noted, name, getattr(api, name)))
    monkeypatch.setattr(api, "return_free_memory", lambda: events.append("trim"))
    data = tmp_path / "a.jsonl"
    data.write_text(
        '{"id": "a", "abstract": "We propose GraphZip, a graph neural network for node '
        'classification on the Cora dataset."}\n'
        '{"id": "b", "abstract": "We evaluate graph neural networks on Cora and PubMed."}\n'
    )

    api.build([data], jobs=1)

    followed = {name: events[events.index(name) + 1] for name in steps}
    assert followed == dict.fromkeys(steps, "trim")

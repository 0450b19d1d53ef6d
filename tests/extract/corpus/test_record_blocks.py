"""Views of every paper's records, made a block of papers at a time when read."""

from paperkg.extract.corpus import record_blocks
from paperkg.extract.corpus.record_blocks import ChangedRecords
from paperkg.records import Mention, Paper, PaperMentions


def papers(n):
    return [
        PaperMentions(
            Paper(id=str(i), abstract="", text="", source="t"), [Mention("X", "TASK", 0, 1, "")]
        )
        for i in range(n)
    ]


def counted(records):
    """A view that proposes every mention, and the list of papers it changed, in order."""
    changed = []

    def propose(index, record):
        changed.append(index)
        return PaperMentions(record.paper, [Mention("X", "TASK", 0, 1, "", proposed=True)])

    return ChangedRecords(records, propose), changed


def test_a_view_reads_like_a_list_of_the_changed_records(monkeypatch):
    monkeypatch.setattr(record_blocks, "RECORD_BLOCK", 3)
    view, _ = counted(papers(7))
    assert len(view) == 7 and [r.paper.id for r in view] == [str(i) for i in range(7)]
    assert view[-1].paper.id == "6" and [r.paper.id for r in view[2:5]] == ["2", "3", "4"]
    assert all(r.mentions[0].proposed for r in view)


def test_a_small_corpus_is_changed_once_however_often_it_is_read(monkeypatch):
    monkeypatch.setattr(record_blocks, "RECORD_BLOCK", 3)
    view, changed = counted(papers(7))
    list(view), list(view), view[4]
    assert changed == list(range(7))


def test_a_large_corpus_is_changed_again_at_each_read_never_all_kept(monkeypatch):
    monkeypatch.setattr(record_blocks, "RECORD_BLOCK", 3)
    monkeypatch.setattr(record_blocks, "KEPT_PAPERS", 5)
    view, changed = counted(papers(7))
    list(view), list(view)
    assert changed == list(range(7)) * 2

"""The progress line: papers and their rate while extracting, then the step and its clock."""

from rich.progress import Progress

from paperkg.cli.build import PapersDone, PapersPerSecond


def test_past_extraction_the_line_shows_no_paper_count_or_rate():
    progress = Progress()
    extracting = progress.add_task("extracting", total=10, completed=4)
    step = progress.add_task("resolving concepts", total=None, step=True)
    tasks = {t.id: t for t in progress.tasks}

    assert PapersDone().render(tasks[extracting]).plain.split() == ["4/10"]
    assert PapersDone().render(tasks[step]).plain == ""
    assert PapersPerSecond().render(tasks[step]).plain == ""


def test_the_rate_counts_extracted_papers_over_the_time_since_the_cache_was_read():
    progress = Progress()
    task = progress.add_task("extracting", total=100)
    progress.reset(task, completed=90, cached=90)  # 90 papers from the cache
    [state] = progress.tasks
    assert PapersPerSecond().render(state).plain == ""  # none extracted yet

    progress.advance(task, 10)  # then 10 extracted, all at once (a chunk)
    state.start_time -= 2.0  # two seconds since the cache was read

    assert PapersPerSecond().render(state).plain == "5.0 papers/s"

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

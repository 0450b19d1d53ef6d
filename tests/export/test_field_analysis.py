"""What the report shows is computed once, the same way each run."""

from paperkg.export.field_analysis import analyse_field
from paperkg.graph.synthetic import toy_field


def test_the_analysis_is_the_same_each_run():
    assert analyse_field(toy_field()) == analyse_field(toy_field())

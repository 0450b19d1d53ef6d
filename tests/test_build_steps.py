"""A build names each stage as it starts, so a long one is not a silent wait."""

from paperkg.api import BUILD_STAGES, OUTPUT_STEPS, build, write_outputs

STAGE_NAMES = [stage.name for stage in BUILD_STAGES]


def test_a_build_names_its_corpus_steps_and_outputs_in_order(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text(
        '{"id": "a", "abstract": "We propose GraphZip, a graph neural network for node '
        'classification on the Cora dataset."}\n'
        '{"id": "b", "abstract": "We evaluate graph neural networks on Cora and PubMed."}\n'
    )
    steps = []

    result = build([data], on_step=steps.append)
    write_outputs(result.graph, tmp_path / "out", on_step=steps.append)

    assert steps == [*STAGE_NAMES, *OUTPUT_STEPS]
    assert OUTPUT_STEPS[-1] == "switching outputs"


def test_without_corpus_terms_that_step_is_not_announced(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "a", "abstract": "We evaluate BERT on SQuAD."}\n')
    steps = []

    build([data], corpus_terms=False, on_step=steps.append)

    assert steps == [name for name in STAGE_NAMES if name != "finding corpus terms"]

"""A build names what it does after extraction, so a long one is not a silent wait."""

from paperkg.api import CORPUS_STEPS, OUTPUT_STEPS, build, write_outputs


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

    assert steps == [*CORPUS_STEPS, *OUTPUT_STEPS]
    assert OUTPUT_STEPS[-1] == "switching outputs"


def test_without_corpus_terms_that_step_is_not_announced(tmp_path):
    data = tmp_path / "a.jsonl"
    data.write_text('{"id": "a", "abstract": "We evaluate BERT on SQuAD."}\n')
    steps = []

    build([data], corpus_terms=False, on_step=steps.append)

    assert steps == list(CORPUS_STEPS[1:])


def test_the_graph_is_built_with_one_resolution_in_memory(tmp_path, monkeypatch):
    """Each corpus step's result is freed once the next has it: the graph step is the
    build's peak memory, and a resolution held twice there cost 250 MB at 100,000 papers."""
    import gc

    from paperkg import api
    from paperkg.records import Resolution

    data = tmp_path / "a.jsonl"
    data.write_text(
        '{"id": "a", "abstract": "We propose GraphZip, a graph neural network (GNN)."}\n'
        '{"id": "b", "abstract": "We evaluate GNNs and graph neural network models."}\n'
    )

    def resolutions():
        gc.collect()
        return [o for o in gc.get_objects() if type(o) is Resolution]

    earlier = resolutions()  # other tests' results may still hold theirs
    alive = []
    build_graph = api.build_knowledge_graph

    def counted(results, resolution, **options):
        alive.append(sum(all(o is not e for e in earlier) for o in resolutions()))
        return build_graph(results, resolution, **options)

    monkeypatch.setattr(api, "build_knowledge_graph", counted)
    build([data], jobs=1)

    assert alive == [1]

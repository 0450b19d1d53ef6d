"""Broader concepts by head phrase: a latent diffusion model IS_A diffusion model."""

from paperkg.graph import build_knowledge_graph
from paperkg.graph.hierarchy import broader_concepts
from paperkg.records import Concept, Mention, Paper, PaperMentions, Resolution

S1 = "We propose a latent diffusion model for video."
S2 = "Diffusion models generate images; we study their learning dynamics."


def test_the_nearest_broader_concept_of_the_same_label_is_linked():
    ids = [
        "Method:sparse latent diffusion model",
        "Method:latent diffusion model",
        "Method:diffusion model",
        "Task:node classification",
        "Method:classification",  # another label: not the broader concept of a Task
        "Method:deep learning",
        "Method:learning",  # too vague to be anyone's broader concept
        "Method:random forest",
    ]
    assert broader_concepts(ids) == {
        "Method:sparse latent diffusion model": "Method:latent diffusion model",
        "Method:latent diffusion model": "Method:diffusion model",
    }


def _concept(cid, count=1):
    label, _, key = cid.partition(":")
    return Concept(cid, label, key, key, {key: count})


def _mention(text, label, sentence, proposed=False):
    start = sentence.lower().index(text.lower())
    return Mention(text, label, start, start + len(text), sentence, proposed=proposed)


def _graph():
    p1 = Paper(id="p1", abstract=S1, text=S1, source="a.txt#1")
    p2 = Paper(id="p2", abstract=S2, text=S2, source="a.txt#2")
    results = [
        PaperMentions(p1, [_mention("latent diffusion model", "METHOD", S1, proposed=True)]),
        PaperMentions(p2, [_mention("Diffusion models", "METHOD", S2)]),
    ]
    ldm, dm = "Method:latent diffusion model", "Method:diffusion model"
    resolution = Resolution(
        concepts={ldm: _concept(ldm), dm: _concept(dm)},
        concept_of=[[ldm], [dm]],
        mention_count=2,
    )
    return build_knowledge_graph(results, resolution)


def test_a_narrower_concept_gets_an_is_a_edge_and_no_co_occurrence():
    G = _graph()
    ldm, dm = "Method:latent diffusion model", "Method:diffusion model"
    assert G.edges[ldm, dm]["type"] == "IS_A"
    assert G.edges[ldm, dm]["reason"] == "head phrase: 'diffusion model'"
    assert not G.has_edge(dm, ldm)  # and no co-occurrence either way


def test_a_paper_proposing_the_narrower_concept_uses_the_broader_one():
    G = _graph()
    ldm, dm = "Method:latent diffusion model", "Method:diffusion model"
    assert G.edges["paper:p1", ldm]["type"] == "PROPOSES"
    inferred = G.edges["paper:p1", dm]
    assert inferred["type"] == "USES"
    assert inferred["via"] == [ldm]
    assert inferred["evidence"] == S1
    # "which papers use diffusion models?" counts both; mentions stay the direct ones
    assert G.nodes[dm]["paper_count"] == 2
    assert G.nodes[dm]["mention_count"] == 1
    assert G.edges["paper:p2", dm]["type"] == "USES" and "via" not in G.edges["paper:p2", dm]


def test_a_head_phrase_named_far_less_often_than_its_longer_names_is_not_their_broader_concept():
    """Five papers name natural language processing and one "language processing":
    the latter is a piece of the name, so no paper of the name is linked to it."""
    sentence = "We study natural language processing."
    nlp_, lp = "Task:natural language processing", "Task:language processing"
    papers = [Paper(id=f"p{i}", abstract=sentence, text=sentence, source="a") for i in range(6)]
    results = [PaperMentions(p, [_mention("natural language processing", "TASK", sentence)])
               for p in papers]  # fmt: skip
    concept_of = [[nlp_]] * 5 + [[lp]]
    resolution = Resolution({nlp_: _concept(nlp_), lp: _concept(lp)}, concept_of, mention_count=6)

    G = build_knowledge_graph(results, resolution)

    assert G.nodes[lp]["paper_count"] == 1
    assert not G.has_edge(nlp_, lp)
    assert broader_concepts([nlp_, lp]) == {nlp_: lp}  # without paper counts: by name alone

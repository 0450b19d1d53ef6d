"""Word lists that the rule components share.

Kept apart from the components so a reader can see, and a user can extend, what the
rules believe a method, dataset, task or metric head word looks like.
"""

from __future__ import annotations

#: head words that make a noun phrase a METHOD whatever modifies them
METHOD_SPECIFIC_HEADS = frozenset(
    """
    transformer transformers autoencoder encoder decoder distillation regularization
    attention learning descent regression convolution pooling
    normalization dropout sampling sampler tokenizer optimizer classifier
    regressor estimator predictor retriever generator discriminator perceptron
    prompting finetuning fine-tuning pretraining pre-training augmentation quantization
    pruning boosting bagging forest forests tree trees gan gans vae vaes rnn rnns
    cnn cnns lstm lstms gnn gnns llm llms mlp mlps tuning optimization optimisation
    inference transport privacy flows ensembles likelihood
    """.split()
)

#: head words that need a specific modifier ("graph neural *network*"), since on their
#: own they are generic ("our *method*")
METHOD_GENERIC_HEADS = frozenset(
    """
    method methods model models network networks net nets algorithm algorithms approach
    approaches framework frameworks architecture architectures technique techniques
    mechanism mechanisms module modules scheme schemes strategy strategies procedure
    procedures pipeline pipelines system systems layer layers policy policies paradigm
    solver solvers objective loss function functions head heads backbone backbones
    kernel kernels embedding embeddings process processes transform transforms
    """.split()
)

TASK_HEADS = frozenset(
    """
    classification detection segmentation recognition translation generation prediction
    forecasting retrieval answering summarization summarisation clustering parsing tracking
    estimation reasoning localization localisation captioning synthesis completion
    extraction labeling labelling tagging reconstruction navigation planning matching
    recommendation ranking understanding grounding editing inpainting denoising
    identification verification imputation discovery alignment adaptation
    generalization generalisation transfer bandits design interpretability explainability
    fairness robustness exploration making following shift assignment
    bias theory stability convergence equivariance invariance uncertainty overfitting
    optimality compositionality identifiability safety attacks games dynamics
    efficiency geometry feedback communication equations science causality neuroscience
    forgetting sketching oversmoothing
    """.split()
)
#: task heads that name a task on their own; other task heads need a modifier
#: ("image *generation*", not bare "generation")
STANDALONE_TASK_HEADS = frozenset(
    """
    classification segmentation detection summarization summarisation translation clustering
    parsing tracking captioning retrieval recommendation forecasting inpainting denoising
    interpretability explainability fairness robustness generalization reasoning exploration
    identifiability equivariance compositionality causality neuroscience overfitting
    """.split()
)
#: method heads that name a method on their own; other specific heads need a modifier
#: ("contrastive *learning*", not bare "learning")
STANDALONE_METHOD_HEADS = frozenset(
    """
    transformer transformers autoencoder autoencoders attention dropout distillation boosting
    bagging prompting finetuning fine-tuning pretraining pre-training quantization pruning
    gan gans vae vaes rnn rnns cnn cnns lstm lstms gnn gnns llm llms mlp mlps perceptron
    """.split()
)
TASK_WORDS = frozenset({"task", "tasks", "problem", "problems", "challenge"})

DATASET_HEADS = frozenset(
    "dataset datasets benchmark benchmarks corpus corpora treebank treebanks suite".split()
)

METRIC_HEADS = frozenset(
    """
    accuracy precision recall f1 f-score f1-score bleu rouge meteor cider auc auroc
    perplexity mse rmse psnr ssim fid miou iou wer cer ndcg mrr
    """.split()
)

#: nouns that do not make a generic head specific: "baseline *model*", "loss *function*",
#: "network *architecture*" are no more a named method than "model" is
GENERIC_NOUN_MODIFIERS = frozenset(
    """
    baseline baselines backbone network networks model models architecture loss cost
    reference implementation activation layer layers level art mapping scoring base
    training learning optimization inference generation decision sampling
    """.split()
)

#: head words of a quantity that need a modifier: "sample *complexity*", "regret *bounds*"
METRIC_MODIFIED_HEADS = frozenset("complexity bound bounds regret".split())

#: words that add nothing to a concept's identity; stripped from phrase edges and, when
#: nothing else is left beside a generic head, make the phrase generic
GENERIC_MODIFIERS = frozenset(
    """
    a an the this that these those our their its his her my your we they it
    novel new proposed simple effective efficient robust powerful existing various
    different several many multiple previous prior current recent standard traditional
    conventional typical popular general generic specific certain such other same
    state-of-the-art sota strong stronger better best improved principled unified
    lightweight flexible scalable practical general-purpose key main first second
    state-of-theart yet more most less very highly well theoretical empirical in-depth depth trained
    significant large-scale small-scale real-world actual synthetic high higher low lower
    comparable superior competitive good poor overall average strong comprehensive thorough
    """.split()
)

#: adjectives that rate or size a thing without naming it; dropped at a name's start
FILLER_ADJECTIVES = frozenset(
    """
    big bigger huge tiny fast faster slow efficient effective simple powerful strong
    stronger prevalent popular widespread common prominent dominant mainstream modern
    advanced sophisticated elaborate vanilla standard conventional traditional classical
    existing prior previous recent current typical generic general-purpose versatile
    flexible scalable practical principled unified novel new proposed improved enhanced
    better best superior remarkable impressive promising successful accurate reliable
    well-known widely-used off-the-shelf state-of-the-art sota cutting-edge leading
    """.split()
)

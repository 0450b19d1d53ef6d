"""Does this long form spell that short form? The acronym matcher of paperkg, in one place.

Used by the spaCy component that finds "graph neural network (GNN)" in one
abstract (:mod:`paperkg.extract.nlp.components.acronyms`) and by the corpus vote on
what a bare acronym stands for (:mod:`paperkg.extract.resolve.acronym_votes`),
so both agree on what counts as a definition.
"""

from __future__ import annotations

__all__ = ["letters_in_order", "long_form_start", "same_start"]

#: Greek letters read as the Latin letter an acronym spells them with ("ΔΔG
#: predictor (DDG)", "β-VAE"): one character for one, so offsets stay put
_GREEK_AS_LATIN = str.maketrans(
    "αβγδεζηθικλμνξοπρσςτυφχψωΑΒΓΔΕΖΗΘΙΚΛΜΝΞΟΠΡΣΤΥΦΧΨΩ",
    "abgdezetiklmnxoprsstupcpoABGDEZETIKLMNXOPRSTUPCPO",
)


def long_form_start(short: str, words: list[str]) -> int | None:
    """Index into ``words`` where the long form for ``short`` starts, or None.

    Schwartz & Hearst (2003): the short form's characters are matched right to left
    in the words, the first one at the start of a word. Shared by the spaCy
    component (``paperkg_acronyms``) and the corpus vote
    (:mod:`paperkg.extract.resolve.acronym_votes`).

    >>> long_form_start("GNN", ["a", "graph", "neural", "network"])
    1
    >>> long_form_start("SelKD", ["we", "term", "selective", "KD"])
    2
    >>> long_form_start("XYZ", ["graph", "neural", "network"]) is None
    True

    Before that, the plain case where the last words' initials spell the short form
    wins, because Schwartz-Hearst takes the *shortest* match and may start inside
    the name ("Category Cooccurrence Restrictions (CCRs)", "Proximal Policy
    Optimization (PPO)"):

    >>> long_form_start("CCRs", ["formalism", "of", "Category", "Cooccurrence", "Restrictions"])
    2
    >>> long_form_start("PPO", ["with", "Proximal", "Policy", "Optimization"])
    1

    Greek letters count as the Latin letter they are spelt with:

    >>> long_form_start("Light-DDG", ["a", "lightweight", "ΔΔG", "predictor"])
    1
    """
    short = short.translate(_GREEK_AS_LATIN)
    words = [w.translate(_GREEK_AS_LATIN) for w in words]
    initials = _initials_start(short, words)
    if initials is not None:
        return initials
    chars = [c.lower() for c in short if c.isalnum()]
    text = " ".join(words).lower()
    word_starts = {0} | {i + 1 for i, c in enumerate(text) if c in " -/"}
    s_idx, l_idx = len(chars) - 1, len(text) - 1
    while s_idx >= 0:
        c = chars[s_idx]
        while l_idx >= 0 and (text[l_idx] != c or (s_idx == 0 and l_idx not in word_starts)):
            l_idx -= 1
        if l_idx < 0:
            return None
        l_idx -= 1
        s_idx -= 1
    # l_idx + 1 is the character where the long form begins; map it to a word index
    start_char = l_idx + 1
    pos = 0
    for i, word in enumerate(words):
        if pos <= start_char < pos + len(word) + 1:
            return i
        pos += len(word) + 1
    return None


def _initials_start(short: str, words: list[str]) -> int | None:
    """Where the long form starts when the last words' initials are the short form's
    letters (a plural "s" of the short form aside), else None."""
    letters = [c.lower() for c in short if c.isalnum()]
    if len(letters) > 2 and short.endswith("s") and short[:-1].isupper():
        letters = letters[:-1]
    if len(letters) < 2 or len(letters) > len(words) or not all(c.isalpha() for c in letters):
        return None
    start = len(words) - len(letters)
    if all(w[:1].lower() == c for w, c in zip(words[start:], letters, strict=True)):
        return start
    return None


def letters_in_order(short: str, long: str) -> bool:
    """Schwartz-Hearst: ``long`` as a whole spells ``short``, its first word starting
    with the short form's first letter.

    >>> letters_in_order("ULMFit", "Universal Language Model Fine-tuning")
    True
    >>> letters_in_order("TD", "Data Augmentation")
    False
    """
    return same_start(long, short) and long_form_start(short, long.split()) == 0


def same_start(long: str, short: str) -> bool:
    """True when ``long`` starts with the first letter of ``short`` (Schwartz-Hearst)."""
    first_long = next((c for c in long if c.isalnum()), "")
    first_short = next((c for c in short if c.isalnum()), "")
    return first_long.lower() == first_short.lower() != ""

"""Clean the LaTeX and links found in real abstracts into plain text for NLP.

Abstracts copied from OpenReview or arXiv carry LaTeX (``$\\ell_p$``,
``\\textbf{all}``, ````quotes''``, ``\\url{...}``) and links. The NLP pipeline
should see readable sentences, so :func:`clean_text` turns markup into the
text it stands for, keeps short inline math as its symbols (``$\\ell_p$`` ->
``ℓp``, ``$\\Delta\\Delta G$`` -> ``ΔΔG``), replaces display math and long
formulas with ``[math]``, and removes links, returning the links to code
separately. The original text is never changed; the caller keeps it.

Examples
--------
>>> clean_text(r"Code is available at \\url{https://github.com/a/b}.")
('Code is available.', ['https://github.com/a/b'])
>>> clean_text(r"We study $\\ell_p$ regression on \\textbf{all} ``hard'' cases.")[0]
'We study ℓp regression on all "hard" cases.'
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latexwalker import get_default_latex_context_db

__all__ = ["clean_text", "is_code_url"]

logger = logging.getLogger(__name__)

#: Hosts whose links are code (repositories, model hubs).
CODE_HOSTS = ("github.com", "gitlab.com", "huggingface.co", "bitbucket.org", "codeberg.org")

#: Words that, just before a link, say that the link points to code.
_CODE_CONTEXT = re.compile(
    r"\b(code|codes|implementation|repository|repo|software|toolkit)\b[^.]{0,60}$",
    re.IGNORECASE,
)

#: Inline math longer than this (after conversion) reads as noise; it becomes ``[math]``.
MAX_INLINE_MATH = 24

MATH_PLACEHOLDER = "[math]"

_URL = re.compile(r"(?:https?://|www\.)[^\s{}<>\"'`\\]+", re.IGNORECASE)
_BARE_CODE_URL = re.compile(
    r"(?<![\w/.])(?:" + "|".join(re.escape(h) for h in CODE_HOSTS) + r")/[^\s{}<>\"'`\\]+",
    re.IGNORECASE,
)
_URL_TRAILING = ".,;:!?)]}'\"*"

# \href{url}{text} and \href{url} (the text argument is sometimes missing)
_HREF = re.compile(r"\\href\s*\{([^{}]*)\}(?:\s*\{([^{}]*)\})?")
# the closing brace is sometimes lost in the wild: "\url{https://github.com/a/b."
_URL_MACRO = re.compile(r"\\(?:url|path|nolinkurl)\s*\{([^{}\s]*)\}?")

_DISPLAY_MATH = re.compile(
    r"\$\$(.+?)\$\$|\\\[(.+?)\\\]"
    r"|\\begin\{(equation|align|eqnarray|gather|multline)\*?\}.*?\\end\{\3\*?\}",
    re.DOTALL,
)
_INLINE_MATH = re.compile(r"(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)", re.DOTALL)

# macros whose argument is dropped together with the macro (a footnote breaks the sentence)
_DROP_MACROS = re.compile(
    r"\\(?:cite[pt]?|ref|eqref|label|footnote)\*?\s*(?:\[[^\]]*\])?\{[^{}]*\}"
)
# any other macro with a braced argument keeps the argument: \textbf{all} -> all
_ARG_MACRO = re.compile(r"\\[a-zA-Z]+\*?\s*\{([^{}]*)\}")
_BARE_MACRO = re.compile(r"\\[a-zA-Z]+\*?")

_ACCENTS = {
    '"': "\u0308",  # umlaut
    "'": "\u0301",  # acute
    "`": "\u0300",  # grave
    "^": "\u0302",  # circumflex
    "~": "\u0303",  # tilde
    "=": "\u0304",  # macron
    ".": "\u0307",  # dot above
    "u": "\u0306",  # breve
    "v": "\u030c",  # caron
    "H": "\u030b",  # double acute
    "c": "\u0327",  # cedilla
    "k": "\u0328",  # ogonek
}
_ACCENT = re.compile(
    r"\{?\\([\"'`^~=.])\s*(?:\{\s*\\?([a-zA-Z])\s*\}|\\?([a-zA-Z]))\}?"
    r"|\{?\\([uvHck])(?:\s*\{\s*\\?([a-zA-Z])\s*\}|\s+\\?([a-zA-Z]))\}?"
)
_LETTER_MACROS = {
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "aa": "å",
    "AA": "Å",
    "l": "ł",
    "L": "Ł",
    "i": "ı",
}
_LETTER_MACRO = re.compile(r"\{?\\(" + "|".join(_LETTER_MACROS) + r")(?![a-zA-Z])\s*(?:\{\})?\}?")
_ESCAPES = {
    "%": "%",
    "&": "&",
    "_": "_",
    "#": "#",
    "$": "$",
    "{": "{",
    "}": "}",
    " ": " ",
    ",": " ",
    ";": " ",
    "!": "",
}
_ESCAPE = re.compile(r"\\([%&_#${} ,;!])")

_OPERATOR = re.compile(r"\\(log|ln|exp|min|max|sup|inf|lim|det|dim|sin|cos|tan|arg|deg|Pr)\s+")

_MACROS = get_default_latex_context_db()
_math_converter = LatexNodes2Text(math_mode="text", strict_latex_spaces=True)


def is_code_url(url: str, before: str = "") -> bool:
    """Tell whether ``url`` points to code.

    ``before`` is the text just before the link: "code is available at" makes
    any link a code link.

    >>> is_code_url("https://github.com/PKU-ML/Projector_Theory")
    True
    >>> is_code_url("https://example.org/project", before="Our code is available at ")
    True
    >>> is_code_url("https://example.org/demo", before="See the demo at ")
    False
    """
    host = re.sub(r"^(?:https?://)?(?:www\.)?", "", url.lower()).split("/", 1)[0]
    if any(host == h or host.endswith("." + h) for h in CODE_HOSTS):
        return True
    return bool(_CODE_CONTEXT.search(before[-120:]))


def clean_text(raw: str) -> tuple[str, list[str]]:
    """Turn an abstract with LaTeX and links into plain text for NLP.

    Returns ``(text, code_urls)``: the cleaned text, and the links to code
    (repositories, model hubs, or any link introduced by "code is available
    at"), in order of appearance, without duplicates. Other links are removed.
    """
    # each step first checks that its markup is there at all: most abstracts are plain
    text = _protect_escaped_dollars(raw)
    text, urls = _pull_links(text)
    if "$" in text or "\\" in text:
        text = _DISPLAY_MATH.sub(f" {MATH_PLACEHOLDER} ", text)
        text = _INLINE_MATH.sub(_inline_math, text)
    # links are judged before markup goes, so a link in a dropped footnote still counts
    code_urls = []
    for url, before in _links_in_order(text, urls):
        if is_code_url(url, before) and url not in code_urls:
            code_urls.append(url)
    text = _text_markup(text)
    if urls:
        text = _drop_links(text, urls)
    text = text.replace("\x00", "$")
    return _tidy(text), code_urls


def _protect_escaped_dollars(text: str) -> str:
    # a literal \$ must not open math; NUL stands in for it until the end
    return text.replace("\\$", "\x00")


def _pull_links(text: str) -> tuple[str, list[str]]:
    """Replace every link by a marker ``\x01<n>\x01`` so markup cleaning cannot touch it."""
    urls: list[str] = []

    def mark(url: str) -> str:
        url = url.strip()
        urls.append(url)
        return f"\x01{len(urls) - 1}\x01"

    def href(m: re.Match[str]) -> str:
        url, label = m.group(1), m.group(2)
        marker = mark(url)
        if label and label.strip() and not _URL.fullmatch(label.strip()):
            # the link text stays in the sentence; the link itself is remembered
            return f"{label}\x02{marker}"
        return marker

    text = _HREF.sub(href, text)

    def url_macro(m: re.Match[str]) -> str:
        if m.group(0).endswith("}"):
            return mark(m.group(1))
        url, tail = _split_trailing(m.group(1))
        return mark(url) + tail

    text = _URL_MACRO.sub(url_macro, text)

    def bare(m: re.Match[str]) -> str:
        url, tail = _split_trailing(m.group(0))
        if not url.lower().startswith(("http", "www.")):
            url = "https://" + url  # a bare github.com/owner/repo
        return mark(url) + tail

    lowered = text.casefold()
    if "http" in lowered or "www." in lowered:
        text = _URL.sub(bare, text)
    if any(host in lowered for host in CODE_HOSTS):
        text = _BARE_CODE_URL.sub(bare, text)
    return text, urls


def _split_trailing(url: str) -> tuple[str, str]:
    """Split punctuation that ends a sentence off a link: ``"https://x.org/a)."``."""
    tail = ""
    while url and url[-1] in _URL_TRAILING:
        # keep a closing bracket that belongs to the URL, e.g. wiki/Foo_(bar)
        if url[-1] == ")" and url.count("(") >= url.count(")"):
            break
        tail = url[-1] + tail
        url = url[:-1]
    return url, tail


def _links_in_order(text: str, urls: list[str]) -> list[tuple[str, str]]:
    found = []
    for m in re.finditer(r"\x01(\d+)\x01", text):
        before = text[: m.start()].replace("\x02", "")
        before = re.sub(r"\x01\d+\x01", "", before)
        found.append((urls[int(m.group(1))], before))
    return found


def _drop_links(text: str, urls: list[str]) -> str:
    # a link that follows its link text (\href{url}{text}) just disappears
    text = re.sub(r"\x02\x01\d+\x01", "", text)
    # "available at: <link>" -> "available"; "(see <link>)" -> ""
    text = re.sub(
        r"\s*(?:\b(?:at|from|on|via|in|here|see)\b\s*)?[:(]?\s*\x01\d+\x01\s*\)?",
        " ",
        text,
        flags=re.IGNORECASE,
    )
    return text


def _inline_math(m: re.Match[str]) -> str:
    body = m.group(1) if m.group(1) is not None else m.group(2)
    words = _text_in_math(body)
    if words is not None:
        return words
    converted = _math_to_text(body)
    if not converted or len(converted) > MAX_INLINE_MATH:
        return MATH_PLACEHOLDER
    return converted


_TEXT_MACRO = re.compile(
    r"\\(?:text|textbf|textit|texttt|textsc|textrm|textsf|textnormal|emph|mathrm|mathbf"
    r"|mathit|mathsf|mathtt|boldsymbol|operatorname)\s*\{([^{}]*)\}"
)
_MATH_SPACING = re.compile(r"\\[,;:! ]|\\(?:quad|qquad)\b|~")


def _text_in_math(body: str) -> str | None:
    """The words of a formula that only sets text, else ``None``.

    Authors set names in math to style them; such a formula is a name, however
    long, not a formula to replace by ``[math]``:

    >>> _text_in_math(r"\\textit{\\textbf{I}mportance-aware \\textbf{C}o-\\textbf{T}eaching}~(\\textbf{ICT})")
    'Importance-aware Co-Teaching (ICT)'
    >>> _text_in_math(r"\\texttt{SubSelNet}"), _text_in_math(r"\\mathbf{x}^\\top W") is None
    ('SubSelNet', True)
    """
    if not _TEXT_MACRO.search(body):
        return None
    text, previous = body, None
    while previous != text:  # innermost first: \textit{\textbf{I}mportance}
        previous = text
        text = _TEXT_MACRO.sub(r"\1", text)
    text = _MATH_SPACING.sub(" ", text)
    if "\\" in text or re.search(r"[=<>+|]", text) or not re.search(r"[A-Za-z]{2}", text):
        return None
    if "^" in text or "_" in text:
        return _math_to_text(text)
    return re.sub(r"\s+", " ", text).strip()


@functools.lru_cache(maxsize=4096)
def _math_to_text(body: str) -> str:
    """Render a short formula as its symbols: ``\\ell_p`` -> ``ℓp``, ``\\times`` -> ``×``."""
    # operator names keep a space after them: \log d -> log d, not logd
    body = _OPERATOR.sub(r"\1 ", body)
    try:
        text = _math_converter.latex_to_text(body)
    except Exception:  # pylatexenc raises assorted errors on odd input; fall back below
        logger.debug("pylatexenc could not read math %r; stripping macros instead", body)
        text = _BARE_MACRO.sub("", body)
    text = re.sub(r"[_^{}\\]", "", text)
    # bold/italic math letters (𝐀) read as plain letters (A)
    text = "".join(_plain_letter(c) for c in text)
    return re.sub(r"\s+", " ", text).strip()


def _plain_letter(char: str) -> str:
    if "\U0001d400" <= char <= "\U0001d7ff":  # mathematical alphanumeric symbols
        return unicodedata.normalize("NFKC", char)
    return char


#: a double quote mark: ``, '' and their escaped forms (\`\`, \'\') in any mix
_DOUBLE_QUOTE = re.compile(r"(?:\\?`){2}|(?:\\?'){2}")
#: a quoted word group opened by ` or by an escaped quote (\`, \', \") before a letter
#: and closed by ' or an escaped quote after one: `Compose', \'Decompose\', \`Compose\'
_QUOTED = re.compile(
    r"(?<![\w\\])(?:\\[`'\"]|`)(?=[^\W\d_])([^`'\"\\\n]{1,80}?)(?<=\S)\\?['\"](?![^\W\d_]|\{)"
)
#: an escaped quote or a backtick left over, not before a letter: a quote mark
_LONE_QUOTE = re.compile(r"\\?[`'](?![{a-zA-Z])|(?<!\\)`")


def _quotes(text: str) -> str:
    r"""Quote marks, escaped or not, as plain quotes, before accents are read.

    Authors escape quotes (``\`\`Composition'' ``, ``\'Decompose\'``); read as
    accent commands they would put an accent on the next letter (``C̀omposition``).
    An accent command before a letter that stands alone (``caf\'e``) stays one.

    >>> print(_quotes(r"termed \`\`Composition through Decomposition'', the \'Decompose\' step"))
    termed "Composition through Decomposition", the 'Decompose' step
    >>> print(_quotes(r"the \`Compose\' step, `Compose' again, \"Quoted\", caf\'e, \`a la"))
    the 'Compose' step, 'Compose' again, "Quoted", caf\'e, \`a la
    """
    if "`" not in text and "\\" not in text and "''" not in text:
        return text
    text = _DOUBLE_QUOTE.sub('"', text)
    text = _QUOTED.sub(_quoted, text)
    return _LONE_QUOTE.sub("'", text)


def _quoted(m: re.Match[str]) -> str:
    mark = '"' if m.group(0)[1] == '"' else "'"
    return f"{mark}{m.group(1)}{mark}"


def _text_markup(text: str) -> str:
    text = _quotes(text)
    if "\\" in text:
        text = _ACCENT.sub(_accent, text)
        text = _LETTER_MACRO.sub(lambda m: _LETTER_MACROS[m.group(1)], text)
        text = _ESCAPE.sub(lambda m: _ESCAPES[m.group(1)], text)
        text = _DROP_MACROS.sub("", text)
        # innermost first, so \textbf{\emph{x}} -> x
        previous = None
        while previous != text:
            previous = text
            text = _ARG_MACRO.sub(r"\1", text)
        text = _BARE_MACRO.sub(_bare_macro, text)
    text = text.replace("---", "\u2014").replace("--", "\u2013")
    text = text.replace("~", " ")
    return text.replace("{", "").replace("}", "")


def _accent(m: re.Match[str]) -> str:
    accent = m.group(1) or m.group(4)
    letter = m.group(2) or m.group(3) or m.group(5) or m.group(6)
    if letter == "i":
        letter = "i"  # \"{\i} and \"i both mean ï
    accented = unicodedata.normalize("NFC", letter + _ACCENTS[accent])
    if len(accented) == 1:
        return accented
    # no language writes this letter with this accent (C̀, D́): the author meant a quote
    return ("'" if accent in "'`" else '"' if accent == '"' else "") + letter


def _bare_macro(m: re.Match[str]) -> str:
    # a symbol macro outside math (\times, \alpha) keeps its symbol; layout macros vanish
    spec = _MACROS.get_macro_spec(m.group(0).lstrip("\\").rstrip("*"))
    if spec is not None and getattr(spec.args_parser, "argspec", ""):
        return ""  # a macro that wants arguments but lost them, e.g. a stray \url
    converted = _math_to_text(m.group(0))
    return converted if converted and not converted.startswith("\\") else ""


def _one_space(text: str) -> str:
    """``re.sub(r"\\s+", " ", text)``, in a third of the time (str.split knows the
    same whitespace as ``\\s``): every abstract is tidied this way twice."""
    words = text.split()
    if not words:
        return " " if text else ""
    lead = " " if text[0].isspace() else ""
    trail = " " if text[-1].isspace() else ""
    return lead + " ".join(words) + trail


#: Markdown italics: one star each side of up to 40 characters within a sentence, with
#: no letter, digit or star outside them ("A* search" and "x*y" are not emphasis)
_ITALICS = re.compile(r"(?<![\w*])\*([^*\s](?:[^*\n.;:!?]{0,38}[^*\s.;:!?])?)\*(?![\w*])")


def _tidy(text: str) -> str:
    text = _one_space(text)
    # Markdown emphasis: "**M**e**L**o**D**y" -> "MeLoDy", "**all**" -> "all"
    if "**" in text:
        text = re.sub(r"\*\*([^*\s](?:[^*]*[^*\s])?)\*\*", r"\1", text)
    if "*" in text:
        # Markdown italics around a few words: "models (*TeCoS-LVM*)" -> "models
        # (TeCoS-LVM)", so an acronym's definition reads as one; not "A* and B*"
        text = _ITALICS.sub(r"\1", text)
        # footnote stars: "*Code is ..." -> "Code is ..."; "A* search" keeps its star
        text = re.sub(r"(?:(?<=\s)|^)\*+", "", text)
    text = re.sub(r"\(\s*\)|\[\s*\]", "", text)
    # whitespace is one space from here on
    if any(f" {mark}" in text for mark in ".,;:!?)"):
        text = re.sub(r"\s+([.,;:!?)])", r"\1", text)
    text = re.sub(r"([(\[])\s+", r"\1", text)
    text = re.sub(r"[:,;]\s*(?=[.!?]|$)", "", text)
    text = _one_space(text)
    # the placeholder keeps its brackets: undo the bracket tidying above
    text = text.replace("[ math]", MATH_PLACEHOLDER)
    return text.strip()

"""``python -m paperkg.cli``: the same as the ``paperkg`` command."""

from . import main

main()

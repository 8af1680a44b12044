"""``python -m ra.cli``: the ``ra`` command."""

from ra.cli import main

main()

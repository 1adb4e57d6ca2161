"""``python -m citeproof.cli``."""

from citeproof.cli import main

main()

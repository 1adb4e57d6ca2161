"""``python -m citeproof``: the same command as ``citeproof`` (:func:`citeproof.cli.main`)."""

from citeproof.cli import main

if __name__ == "__main__":
    main()

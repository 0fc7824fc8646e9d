"""``python -m heartslib``: the same command line as the ``heartslib`` script."""

from heartslib.cli import main

if __name__ == "__main__":  # pytest's doctest collection imports this module; only run as a program
    raise SystemExit(main())

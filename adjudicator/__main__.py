"""``python -m adjudicator``: the same command line as the ``adjudicator`` script."""

from adjudicator.cli.main import main

if __name__ == "__main__":
    main(prog_name="adjudicator")

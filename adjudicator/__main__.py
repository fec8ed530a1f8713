"""``python -m adjudicator``: the same command line as the ``adjudicator`` script."""

from cli.main import main

if __name__ == "__main__":
    main(prog_name="adjudicator")

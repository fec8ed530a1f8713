"""The ``adjudicator`` command line (click).  Domain errors become CLI errors only here."""

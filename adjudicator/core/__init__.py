"""Game-agnostic core, by concern: ``kernel`` (events, log I/O, the game protocol and kit, rulings,
the fold, verification, notation), ``store`` (matches in the event store), ``services``
(tournaments, reconciling records, card pools, deck lists).  Nothing here names a game."""

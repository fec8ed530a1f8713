"""Game-agnostic core: events, log I/O, rulings, the game protocol, verification, positions."""

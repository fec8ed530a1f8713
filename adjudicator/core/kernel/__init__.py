"""The kernel: events, log I/O, the game protocol and kit, rulings, the fold, verification, notation."""

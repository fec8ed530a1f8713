"""Services over verified logs: tournaments (standings, pairings), reconciling records, card pools, deck lists."""

"""Rule ids of Colossi.  Every id here is documented in docs/rules/colossi.md.

Dotted ids (``CL-4.2``) are rules the engine enforces, by section; undotted ids (``CL-14``) are the
project's interpretations of gaps in the seed, numbered as in the design analysis (CL-1 .. CL-28)
and continued from CL-29 for the questions the component texts raise.
"""

from adjudicator.core.rulings import Rulebook

RULES: dict[str, str] = {
    # 1 set-up
    "CL-1.1": "A match has 2 to 4 players with distinct ids",
    "CL-1.2": "The first player is determined first, once, among the players",
    "CL-1.3": "The tile deck: 16 Grass, 2 different Lairs, then 8 different Environments from the box",
    "CL-1.4": "Trait row and draft: 3 face-up Traits; each player in seat order takes one (row or deck top); the row is refilled",
    "CL-1.5": "Each player is dealt 3 Colossus cards",
    "CL-1.6": "Starting tiles: in seat order from the first player, each on an empty space, with the Colossus and its Loot",
    # 2 the turn
    "CL-2.1": "Only the player whose decision it is may act, with an event the current step allows",
    "CL-2.2": "Start of the turn: start-of-turn Traits, Replenish, then Draw (1 card; Abundant 2)",
    "CL-2.3": "At most 4 Actions a turn (Traits change it); each move, spawn and card costs one",
    "CL-2.4": "Move Beast: after the Actions, one Beast may move one space to a neighbouring explored space",
    "CL-2.5": "Banner phase: Deploy or Rest, not both (Dominate: both; Haste: none)",
    "CL-2.6": "A card, tile, Trait or Beast drawn must be one the deck holds; a die shows 1 to 6",
    "CL-2.7": "A card or tile named where the record held an unknown one must be one it can still be",
    # 3 movement
    "CL-3.1": "A move takes one of one's own pieces one space, to a neighbouring space",
    "CL-3.2": "Entering an unexplored space reveals the top tile of the tile deck; a Lair brings its Beast; the move ends",
    "CL-3.3": "Road Movement: free onward steps only from a space that held one's own piece when entered, never to a space twice",
    "CL-3.4": "Spawn: an Acolyte from hand onto one's own Colossus's space (Zoophilic: on or next to a Beast)",
    "CL-3.5": "Acolytes die when pushed off the island or by a killing effect, and return to their owner's hand",
    "CL-3.6": "Guarded Acolytes (Stone Beast, Protective) are not killed, and not moved by others or by forced effects",
    "CL-3.7": "Acolyte caps: Sacrifice 4, Miserly 3, Necromancer 4 on the board (the lowest applies)",
    # 4 control and Banners
    "CL-4.1": "Control: one Colossus controls its space; several: the one with most Acolytes; none: most Acolytes; ties: nobody",
    "CL-4.2": "A Banner is raised from hand only on a space its player controls, in the Deploy",
    "CL-4.3": "One Banner per space (Resolute: two of one's own); an opponent's Banner is replaced and returns to its owner unless guarded",
    "CL-4.4": "Deploy may move one's deployed Banners to other controlled spaces",
    "CL-4.5": "Banner caps: Concession 3, Miserly 2, Nomadic and Monolithic 1 on the board",
    "CL-4.6": "Rest: every Banner of one's own is collected once, in the order chosen, and its space scored",
    "CL-4.7": "Scoring a space: its Loot cubes (gold, blue cards, green Traits), then its tile's effect",
    # 5 resources and the end
    "CL-5.1": "A payment in Gold needs that much Gold",
    "CL-5.2": "Hand limit 6 (Poverty 3, Ludicrously Capacious 8): discard down to it",
    "CL-5.3": "At most 2 Traits in play (Austerity 1): discard down to it",
    "CL-5.4": "A Trait is gained from the face-up row or the top of the Trait deck",
    "CL-5.5": "At 50 Gold the round is finished; the most Gold wins",
    # 6 cards
    "CL-6.1": "A Colossus card is played from its player's hand, by the turn player in the Actions",
    "CL-6.2": "A card's choices (space, player, Beast, direction, Trait) must fit its text",
    "CL-6.3": "Speedy: one card a turn; Dominate: only as the first Action, and no Action after it",
    "CL-6.4": "A choice a card, tile or Trait asks for later must be one its text allows",
    # 7 Traits
    "CL-7.1": "Start-of-turn Traits: Sly names another player; Mimicry borrows a Trait; Soothsayer looks at a deck",
    "CL-7.2": "Paid Trait abilities in one's own Actions: Beast Whisperer (once a turn), Boldness, Mercantile",
    "CL-7.3": "Alchemist: one's own card, Trait, Banner or Acolyte turned into 1 Gold in one's Actions",
    "CL-7.4": "Reactions in any turn: Reactive, Resurrecting, Necromancer and Parasitic, each when its trigger happened",
    "CL-7.5": "Ludicrously Capacious: at most 2 moves and spawns a turn",
    # interpretations of the gaps (design analysis numbering)
    "CL-1": "The island is data: the default is the assumed hex layout of rows 5-6-5-6-5",
    "CL-2": "Off the island: a push with no neighbour in its direction kills an Acolyte; Colossi and Beasts never leave",
    "CL-3": "The end: the round is finished after 50 Gold (option: at once); the most Gold wins, ties shared (option)",
    "CL-4": "Only the Gold victory exists (the three victory conditions are stale text)",
    "CL-5": "Every card played costs an Action (option)",
    "CL-6": "Road Movement is step by step: a free step continues the piece that just moved",
    "CL-7": "Exploring ends the move (an unexplored space holds no road)",
    "CL-8": "A newly explored tile gets its Loot at the next Replenish (option: at once)",
    "CL-9": "Loot production: 8 gold, 4 blue, 4 green Grass; Starting tiles gold and blue; Environments none",
    "CL-10": "Replenish refills every Loot-yielding tile on the island",
    "CL-11": "Scored Loot cubes leave the space; the bank is unlimited",
    "CL-12": "Beasts move to explored neighbouring spaces only (option: also unexplored)",
    "CL-13": "Beasts kill only by their passives and lair effects (option: every Beast kills on its space)",
    "CL-14": "Deploy may move deployed Banners (option)",
    "CL-15": "Banner limits: hand only, one per space, the lowest cap applies",
    "CL-16": "Control is judged at the moment of each Banner event",
    "CL-17": "Which tile texts are scoring effects and which are triggers",
    "CL-18": "The hand limit is enforced at once (option: at the end of the turn)",
    "CL-19": "Trait limit and market; no voluntary Trait discard (option)",
    "CL-20": "An empty Colossus deck is refilled from the discard pile (option)",
    "CL-21": "Set-up order: first player, tile deck, Traits, cards, starting tiles",
    "CL-22": "2 to 4 players",
    "CL-23": "The tile deck always suffices; The Void falls back on the box (option: the box first)",
    "CL-24": "Gold never goes below 0; a forced payment takes what there is (option)",
    "CL-25": "A spawn or placement past the lowest Acolyte cap is refused",
    "CL-26": "Beast passives act on every space entered or left, in path order",
    "CL-27": "Traits are in play by default (option: first game without them)",
    "CL-28": "Colossi moved by effects may stand on any space; only Acolytes die on Mountaintop",
    "CL-29": "Pieces moved by effects into an unexplored space explore it",
    "CL-30": "Guarding protects against others and forced moves, not against the owner's own moves",
    "CL-31": "Scoring outside a Rest leaves the Banner in place (Short Rest and Miracle return it)",
    "CL-32": "Deaths are grouped per space and effect for the reaction Traits",
    "CL-33": "A tile's scoring effect applies whenever the space is scored; the Time Beast's Actions only in the scorer's turn",
    "CL-34": "An Acolyte pushed off the island died on the space it was pushed from",
    "CL-35": "Animalistic: the Colossus carries the drawn Beast's passive until the end of the next own turn",
    "CL-36": "Underworld: Banner spaces are neighbours for one's own moves in one's own turn",
    "CL-37": "Influence and Domineering: who moves what, and whose roads count",
    "CL-38": "Fixed orders where the text leaves one open (Convert, Ritual Sacrifice, Launchpad)",
    "CL-39": "Decks are unordered until looked at; a look fixes the top (Soothsayer)",
    "CL-40": "A seat's record: unknown cards and tiles are placeholders; what they can be is the data minus what was seen",
    "CL-41": "A look at a deck's top (Soothsayer) is written (TopRevealed; CardsLooked for what is on top); a seat keeps what it saw",
    "CL-42": "The Oasis discards the whole hand face up, written as one CardsMoved, before its draws",
    "CL-43": "An irregular event a judge lets stand does what it says on the table; one naming what is not there has no defined effect",
    "CL-44": "A seat cannot unsee: a taking back keeps the cards drawn, looked at and turned up, on top and known",
    "CL-45": "A Trade's card given back, passed over by a hand a seat's record does not show: none to give",
    "CL-46": "Discards from a hand (the hand limit, the Oasis) are shown to every seat (option: face down)",
    "CL-47": "A Trade's different card is another name (option: another copy counts)",
}

RULEBOOK = Rulebook("CL", RULES)

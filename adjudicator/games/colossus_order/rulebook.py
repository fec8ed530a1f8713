"""Rule ids of Colossus Order.  Every id here is documented in docs/rules/colossus-order.md.

Dotted ids (``CO-7.3``) are rules the engine enforces, by section; undotted ids (``CO-13``) are
the project's interpretations of gaps in the seed, numbered as in the design analysis.
"""

from adjudicator.core.rulings import Rulebook

RULES: dict[str, str] = {
    # 1 deck construction
    "CO-1.1": "A match is played by exactly two players, each with a deck list",
    "CO-1.2": "A deck holds exactly 50 cards besides its Colossus",
    "CO-1.3": "A deck holds at most 20 Gem cards",
    "CO-1.4": "At most 3 cards of one name (ordinary Gems exempt; Unique Gems count)",
    "CO-1.5": "The Colossus is a Colossus card and sits outside the deck; no Colossus in the deck",
    # 2 start of game
    "CO-2.1": "Both decks are shuffled before the first player is decided (first-listed player first)",
    "CO-2.2": "The first player is decided once, and is a player of the match",
    "CO-2.3": "Each player draws 7 opening cards, the first player first",
    "CO-2.4": "Opening exchange: the first player returns up to 2 cards, the second up to 4, to the bottom of the deck, then draws as many",
    "CO-2.5": "A drawn or revealed card must be one the deck can yield at that point",
    "CO-2.6": "Draws, reveals and mills follow what is known of the deck's order: a card known on top comes first, returned cards come after the unknown part",
    # 3 turn structure
    "CO-3.1": "Only the player whose decision it is may act, and only with an event the current step allows",
    "CO-3.2": "Complete Declaration: in the start phase before the draw, naming 6 of one's own face-down Locus slots",
    "CO-3.3": "After a failed Complete Declaration, 2 of the 6 revealed Locus cards are discarded",
    "CO-3.4": "Draw step: the turn player draws 1; the first player skips it on the first turn",
    "CO-3.5": "Nothing is played in the start and end phases",
    # 4 setting cards
    "CO-4.1": "Once per turn, a Gem card from hand may be set on the Colossus",
    "CO-4.2": "Once per turn, any card from hand may be set face down as a Locus",
    "CO-4.3": "Only one Unique Gem of a name among a player's set gems",
    "CO-4.4": "A card played or set must be in its player's hand",
    # 5 costs
    "CO-5.1": "Locus cost is paid with Locus points not yet used this turn (face-up Locus cards count)",
    "CO-5.2": "Gem Level: the player's gems must meet the card's colour requirements (gems are not spent)",
    # 6 followers
    "CO-6.1": "Followers are played by the turn player at open timing of the main phase",
    "CO-6.2": "Only one Follower Unique of a name on a player's field",
    "CO-6.3": "Targets: one valid follower per effect that chooses a target",
    "CO-6.4": "CIP abilities are mandatory and resolve as the follower enters",
    "CO-6.5": "Target conditions: an effect on an opponent's attacker needs the attacker to be the opponent's; attack, defence, cost or race limits must be met",
    # 7 attacks
    "CO-7.1": "Attacks are declared by the turn player at open timing of the main phase",
    "CO-7.2": "The attacker is one of the turn player's followers on the field",
    "CO-7.3": "The attacker must be ready: ON, not played this turn, not yet attacked this turn",
    "CO-7.4": "Attack targets: the opponent's deck, one of the opponent's Locus slots (either face), or an opponent's follower in OFF",
    "CO-7.5": "A block is declared (or declined) by the defending player with one of their ON followers",
    "CO-7.6": "Battle damage stays on a follower until end of turn; a follower whose damage reaches its Defence is destroyed",
    "CO-7.7": "Deck hit: reveal as many top cards as the attacker's Crush; capture up to its Capture of the revealed Gems; discard the rest",
    "CO-7.8": "Locus hit: the slot is flipped; a Gem is captured and its owner draws 1 and puts a card face down in the same slot",
    "CO-7.9": "A defended attack does nothing to its target, even if the blocker left the field",
    # 8 actions and abilities
    "CO-8.1": "An Action is played by the turn player at open timing of the main phase, then discarded",
    "CO-8.2": "An Action.Snap may also be played by the player with priority in an X-play window",
    "CO-8.3": "A follower's activated ability: its controller's follower, costs paid; an OFF cost needs it ON and not played this turn",
    "CO-8.4": "Each Colossus ability: once per turn, own main phase at open timing, its gem requirement met",
    "CO-8.5": "A declared effect is accepted only for card text the engine does not model, and is not engine-checked",
    "CO-8.6": "Revealing the top of a deck: each revealed card is named in turn, stays on top and is known to both players",
    "CO-8.7": "Turning a Locus card face up or face down: the chosen slot must show the other face, and stays turned",
    "CO-8.8": "Milling: the top cards of a deck go one by one, each named, to its owner's discard pile",
    "CO-8.9": "An Attack or Defence set to a value lasts until end of turn",
    # 9 X-play
    "CO-9.1": "An X-play window opens after a follower, an Action or a follower ability is played, after an attack's block decision, and at the end of the main phase",
    "CO-9.2": "In a window the turn player acts first, then the players alternate; two passes in a row close it",
    "CO-9.3": "In X-play only Action.Snap cards and follower abilities may be played, by the player with priority",
    "CO-9.4": "The chain resolves last in, first out",
    # 10 end of turn, end of game
    "CO-10.1": "The turn player ends the main phase; at end of turn damage and until-end-of-turn effects are removed",
    "CO-10.2": "A player whose deck reaches 0 cards loses",
    "CO-10.3": "A Complete Declaration revealing 6 Gem cards wins",
    "CO-10.4": "A player may concede at any time",
    # interpretations of gaps (design analysis numbering)
    "CO-1": "Opening exchange limits are a ruleset option (2013: 2/4, 2014: 3/5)",
    "CO-2": "Set-up order: shuffle, first player, opening draws, exchanges",
    "CO-3": "Deck construction is validated strictly unless the ruleset turns it off",
    "CO-4": "Locus points: a counter moving over the Locus cards; points used are restored at Recovery",
    "CO-5": "A new Locus card takes a new slot at the right; a replacement keeps its slot",
    "CO-6": "Gem Level counts all Colossus gems (set and captured) by default",
    "CO-7": "Colossus abilities count set gems only by default",
    "CO-8": "A Gem Level is colour counts plus an optional count of gems of any colour",
    "CO-9": "A follower played this turn cannot attack or pay an OFF cost, but may block and use other abilities",
    "CO-10": "Declaring an attack switches the attacker OFF",
    "CO-11": "Any ON follower may block any attack; one blocker per attack",
    "CO-12": "Order after an attack: block decision, then the X-play window, then the battle",
    "CO-13": "Battle damage is one-way (attacker to blocker or target) by default",
    "CO-14": "A follower is destroyed when its damage reaches its Defence by default",
    "CO-15": "An attack whose attacker left the field before the battle does nothing",
    "CO-16": "Deck hit: reveal min(Crush, deck) cards; the attacker chooses which Gems to capture",
    "CO-17": "Locus hit on a face-up non-Gem does nothing; a Gem is always captured",
    "CO-18": "X-play protocol: one chain per window, turn player first, two passes close it",
    "CO-19": "Played cards and abilities are chain items; a follower enters when its item resolves",
    "CO-20": "CIP targets are named when the follower is played and checked again on entering",
    "CO-21": "Ability kinds: CIP (auto), activated, continuous",
    "CO-22": "Complete Declaration needs 6 face-down Locus cards; the declarer chooses the discards by default",
    "CO-23": "Deck-out is checked after every event; both at 0 at once is a draw by default",
    "CO-24": "No hand limit",
    "CO-25": "Unique limits apply on the field and to set gems",
    "CO-26": "At end of turn damage leaves every follower of both players",
    "CO-27": "Action.Snap cards may be played at open timing by the turn player too",
    "CO-28": "Colossus abilities open no X-play window",
    "CO-29": "Face-up Locus cards still give Locus points",
    "CO-31": "The first player is recorded as an event (rock-paper-scissors is not simulated)",
    "CO-32": "Attacks are allowed on the first turn when a follower is ready",
    "CO-33": "Attack targets are checked when declared only",
    "CO-34": "No maximum number of Locus cards by default (option max_locus)",
    "CO-35": "Cards returned in the opening exchange are known as a set at the bottom, their order unknown (option returned_order)",
    "CO-36": "What is known of a deck's order: cards known on top, the unknown part, the returned set, cards put under; a shuffle forgets it",
    "CO-37": "A set Attack or Defence replaces the printed value; boosts and auras add to it; damage is compared with the result (option stat_setting)",
    "CO-38": "Face-up Locus cards: still Locus points and attack targets, never part of a Complete Declaration, public; one turned face down stays known",
}

RULEBOOK = Rulebook("CO", RULES)

"""Rule ids of LOGOS.  Every id here is documented in docs/rules/logos.md.

Dotted ids (``LG-3.3``) are rules the engine enforces, by section; undotted ids (``LG-11``) are
the project's interpretations of the gaps of the seed, numbered as in section 3.2 of the design
analysis (LG-1 to LG-30), then the project's own answers about the cards a pool may hold (LG-31
to LG-34), then how a seat's record with unknown cards is judged (LG-35 to LG-39), what an
irregular event a judge lets stand does (LG-40) what a seat keeps of events taken back (LG-41) and what the cards an effect moves show (LG-42).
"""

from adjudicator.core.kernel.rulings import Illegal, Rulebook

#: the prefix of every ruling code of LOGOS
NS = "logos/"

RULES: dict[str, str] = {
    # 1 set-up
    "LG-1.1": "A match is played by exactly two players, each with a deck list",
    "LG-1.2": "Decks follow the ruleset's construction limits (deck size, copies), when it sets any",
    "LG-1.3": "Each player starts with the ruleset's hit points and card slots, an empty Backup Slot and an empty combo counter",
    # 2 the round: refill, defenseless
    "LG-2.1": "Only a player whose decision it is may act, and only with an event the current step allows",
    "LG-2.2": "At the start of a round every empty card slot takes one card from its owner's deck: first player first, slots left to right",
    "LG-2.3": "A drawn card must be one the player's deck still holds",
    "LG-2.4": "A player with no playable card is defenseless for the round: every slot is emptied and the player sends no card",
    # 3 the battle card
    "LG-3.1": "Each player who is not defenseless sends exactly one card into battle per round",
    "LG-3.2": "The battle card comes from one of the player's card slots",
    "LG-3.3": "A card with a combo requirement is playable only when its indicator matches the combo counter exactly (grey matches anything)",
    "LG-3.4": "Hidden picks: both players commit before any pick is revealed, and a reveal must open its commitment",
    # 4 the Backup Slot
    "LG-4.1": "In Phase 1, before the player's pick, a card with Speed above 99 and no combo requirement may go from a slot to the empty Backup Slot",
    "LG-4.2": "In Phase 2, when asked, a player may call the Backup card to replace the battle card",
    # 5 the battle
    "LG-5.1": "Direction: the class that beats the other attacks (MATTER > ENERGY > INFORMATION > MATTER; Neutral loses to all; Life beats all)",
    "LG-5.2": "Same class: the higher Speed attacks; the same Speed is a Deadlock and the round ends without a battle",
    "LG-5.3": "Damage: the Attacker's Attack minus the Defender's Defense, when above zero, comes off the Defender's hit points",
    "LG-5.4": "Same class: when the first strike does no damage, the other card strikes back",
    # 6 the combo counter
    "LG-6.1": "After a battle the current colour of the battle card is pushed into the leftmost panel of the counter (three panels, last in first out)",
    # 7 effects
    "LG-7.1": "Effects fire once the direction is determined: the Defender's first, then the Attacker's; the left field aims at the opponent, the right field at the owner",
    "LG-7.2": "Permanent effects: Add Card Slot, Remove Card Slot, Regeneration, Shuffle Hand, Destroy Combo, Destroy Backup",
    "LG-7.3": "Neutralize: a shield that cancels the target's temporary effects and blocks every later effect aimed at the target this round",
    "LG-7.4": "Temporary effects last until the end of the round: Maximize, Minimize, Swap Values, Double Combo, Mimmick, Berserk, Color Change",
    "LG-7.5": "Color Change can change the direction: the direction is determined again after the effects",
    # 8 end of the match
    "LG-8.1": "A player whose hit points reach 0 loses",
    "LG-8.2": "A player may resign at any time before the end",
    # interpretations of gaps (design analysis section 3.2)
    "LG-1": "Each player starts with 100,000 hit points (option start_hp)",
    "LG-2": "Hand size is the number of card slots: 3 at the start, between 1 and 6 (options)",
    "LG-3": "No deck construction limits unless the ruleset sets a deck size or a copy limit",
    "LG-4": "An empty deck that must give a card takes the shuffled discard pile (option on_empty_deck)",
    "LG-5": "Round 1 fills every slot; there is no mulligan",
    "LG-6": "Simultaneous picks are logged as a commitment and a reveal (or openly, option picks)",
    "LG-7": "One combo counter per player, fed by that player's own battle cards (option combo_counter)",
    "LG-8": "An empty counter panel matches only grey; the counter is read as it stands in Phase 1",
    "LG-9": "The colour pushed is the card's class after Color Change; no push on a Deadlock or for a defenseless player; Double Combo pushes twice",
    "LG-10": "Neutral against Neutral and Life against Life follow the same-class Speed rule",
    "LG-11": "Direction, then the effects (Defender's left, right, Attacker's left, right), then the direction again (options effect_order, field_order)",
    "LG-12": "A Deadlock found before the effects ends the round at once, without effects (option deadlock_before_effects)",
    "LG-13": "At most one counter-attack per round (option max_counters)",
    "LG-14": "A first strike that does damage is never answered; different classes never counter-attack",
    "LG-15": "A defenseless player has no card: the opponent attacks against Defense 0; effects aimed at the missing card do nothing",
    "LG-16": "Battle cards and dumped cards go to their owner's discard pile",
    "LG-17": "Backup: assigned in Phase 1 before the pick, never the last playable card; called in a Phase 2 window before the strike, Defender asked first",
    "LG-18": "Backup eligibility: Speed of 100 or more and three grey panels; one Backup Slot",
    "LG-19": "Regeneration heals the Attack plus Defense of its card as they stand, up to the starting hit points (option hp_cap)",
    "LG-20": "Shuffle Hand dumps the cards in the slots; the new hand is dealt by the next refill (option shuffle_hand_to)",
    "LG-21": "Add Card Slot adds an empty slot; Remove Card Slot removes the rightmost empty slot, else the rightmost slot and its card",
    "LG-22": "Neutralize shields a player; permanent effects already applied stay",
    "LG-23": "Mimmick copies the effect in the same field of the opposing battle card and fires it from its own field (option mimmick_target)",
    "LG-24": "Berserk checks the target's hit points when it fires and doubles that player's battle card",
    "LG-25": "Stat effects stack in the order they fire, each reading the current values",
    "LG-26": "Color Change names a from-class and a to-class and does nothing to a card of another class",
    "LG-27": "Both players at 0 hit points at once cannot happen: one event changes one player's hit points",
    "LG-28": "A resignation ends the match as a draw by default (option resign_result)",
    "LG-29": "No round limit by default; three rounds in a row with both players defenseless end the match as a draw (options max_rounds, stall_rounds)",
    "LG-30": "The permanent effects of a card replaced by the Backup card remain",
    # interpretations of the card vocabulary (docs/rules/logos.md, "What a card can be")
    "LG-31": "Life cards have no rule of play of their own beyond the class matrix; a ruleset may limit them per deck (option max_life)",
    "LG-32": "Attack, Defense and Speed are whole numbers from 0 to 1,000,000,000; Speed 99 is ordinary, Speed 100 or more is a Backup Speed",
    "LG-33": "A combo indicator is three panels, each grey or any of the five colours",
    "LG-34": "Any effect may be printed in either field; the field alone decides the target",
    # a seat's record: unknown identities (docs/rules/logos.md, "Unknown identities")
    "LG-35": "A seat's record may leave cards unknown: draws and Backup cards as \"?\" or null, a deck list as {}",
    "LG-36": "A card named where an unknown card was must be one that card can still be (deck list or copy limit, minus every card seen)",
    "LG-37": "A decision that needs a playable or eligible card among unknown cards is undetermined",
    "LG-38": "Where a derived step turns on an unknown card, the record's statement is checked against every card it can be",
    "LG-40": "An irregular event a judge lets stand has a defined effect: a late play leaves the slots for the discard pile, a draw with no empty slot is discarded, a call outside the window swaps the cards",
    "LG-43": "A look a pool gives a card (look-slots, look-backup) shows its owner the target's cards; nothing moves",
    "LG-42": "The cards Shuffle Hand and Remove Card Slot move out of card slots are named (EffectResolved.cards); face up into the discard pile, both seats see them and a seat's record of a log that states the event names them",
    "LG-41": "A seat cannot unsee: a card a seat saw in events a judge took back stays known to it where they went back (an opponent's card slots or Backup Slot, the top of its own deck)",
    "LG-44": "A look at one's own deck top (look-deck): its owner sees the top cards (CardsLooked), puts them back in an order it chooses (CardsReordered, with reorder) and every later draw takes the first card known on top",
    "LG-46": "In a seat's record, a player whose deck of unknown size gives no card at the refill had an empty deck: the record goes on, undetermined on that condition",
    "LG-45": "A seat's record keeps the opponent's cards a look showed it (the Backup card in place, the card slots' unknown cards as a multiset): a later event naming a card there that cannot be one of them is illegal",
    "LG-39": "What each seat is shown: a called Backup card is turned face up for both players (BackupCalled names it); LOGOS's one private look is LG-44's",
}

RULEBOOK = Rulebook("LG", RULES)


def bad(rule: str, code: str, message: str) -> Illegal:
    return Illegal(rule, NS + code, message)

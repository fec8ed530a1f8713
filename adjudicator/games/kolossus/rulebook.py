"""Rule ids of Kolossus.  Every id here is documented in docs/rules/kolossus.md.

Dotted ids (``KO-5.5``) are rules the engine enforces, by section; undotted ids (``KO-16``) are
the project's interpretations of gaps in seed 002, numbered as in the design analysis (4.2).
"""

from adjudicator.core.kernel.rulings import Rulebook

RULES: dict[str, str] = {
    # 1 set-up
    "KO-1.1": "Four warbands in four corner seats, listed clockwise from the first player; each warband and corner once",
    "KO-1.2": "Two to four players; a player commanding two warbands commands an alliance (diagonally opposite seats)",
    "KO-1.3": "Chapter 2+: each warband first puts exactly 4 mana on the Attack/Defence skills of its classes",
    "KO-1.4": "Each warband places its Colossus, 2 Guardians and 5 Warriors on distinct squares of its own start zone",
    # 2 dice
    "KO-2.1": "A roll records d4 results (1 to 4), as many dice as it needs, by the warband that rolls",
    "KO-2.2": "With a declared generator, every recorded die equals the generator's next result",
    # 3 the Great Quake
    "KO-3.1": "Once before round 1, each warband in turn from the first player rolls a d4 and slides a region",
    "KO-3.2": "The Great Quake slides one of the central regions",
    "KO-3.3": "Each region moves at most once in the Great Quake",
    "KO-3.4": "The region slides straight along its own line, by the die result",
    "KO-3.5": "Landscapes pushed over the edge leave the game; the Citadel may never leave the board",
    # 4 rounds and turns
    "KO-4.1": "Only the warband whose step it is acts, and only with an event that step allows",
    "KO-4.2": "The die of destiny gives the turn's activation points",
    "KO-4.3": "An activation costs Warrior 1, Guardian 2, Colossus 3 points, within the points left",
    "KO-4.4": "Each miniature is activated at most once per turn: a class needs a miniature not yet activated",
    "KO-4.5": "Movement dice: 1 d4 for a Warrior, 2 for a Guardian, 3 for a Colossus; their sum (+ Attack) is the movement points",
    "KO-4.6": "The warband ends its turn; activation points left are lost",
    # 5 movement
    "KO-5.1": "The moving miniature is the warband's own, of the activated class, not yet activated this turn",
    "KO-5.2": "A path names squares of the board, each one step (straight or diagonal) from the one before",
    "KO-5.3": "A move runs straight in one of 8 directions; a Guardian or Colossus may change direction once",
    "KO-5.4": "A move has at most as many steps as movement points",
    "KO-5.5": "Each step climbs or drops at most one level; only the Colossus jumps levels",
    "KO-5.6": "Own (and allied) miniatures may be passed over but not stopped on",
    "KO-5.7": "Entering an enemy's square ends the move and beats that miniature",
    "KO-5.8": "Chapter 2+: beating needs movement points left for the enemy class's Defence",
    # 6 crystals and the end of the game
    "KO-6.1": "A Crystal of Time is placed on the Citadel at the start of each round",
    "KO-6.2": "A miniature ending its move on the Citadel captures the crystals lying there",
    "KO-6.3": "The warband that captured a crystal plays first from the next round",
    "KO-6.4": "After the last round the alliance with the crystal majority wins, else the one that took the last crystal",
    "KO-6.5": "A warband left without miniatures on the board loses the game for its alliance at once",
    # 7 mana (chapter 2)
    "KO-7.1": "Each turn gives mana 4 minus the die of destiny, from the warband's supply",
    "KO-7.2": "At the end of the turn the new mana goes to skills (chapter 3: also to the pool, up to 5, and the weapon)",
    "KO-7.3": "Attack adds to movement points; Defence raises what an attacker must have left",
    # 8 Titan Weapons and Titan Powers (chapter 3)
    "KO-8.1": "A Titan Weapon is used by its warband's activated Colossus, charged with 2 mana that return to supply",
    "KO-8.2": "Sword of Storm: the Colossus may move on after beating",
    "KO-8.3": "Whip of Wrath: the enemy's Defence is ignored",
    "KO-8.4": "Spear of Vengeance: after the move, beat one enemy in a straight line with nothing between",
    "KO-8.5": "Hammer of Doom: after the move, beat adjacent enemies for 1 point plus Defence each",
    "KO-8.6": "Initiative: 1 pool mana adds 1 to the die of destiny (at most 4), right after the roll",
    "KO-8.7": "Earthquake: 3 pool mana slide a region one square between activations; the Citadel stays on the board",
    "KO-8.8": "Rebirth: 1/2/3 pool mana return a beaten Warrior/Guardian/Colossus to a free square of the start zone",
    # interpretations of gaps (design analysis, section 4.2)
    "KO-1": "The board is 11x11; the zikkurat is concentric rings on the centre square (board data)",
    "KO-2": "Start zones are the 8 bare squares of each corner 3x3 block, seats clockwise NW, NE, SE, SW",
    "KO-3": "The five central regions are rows and columns 4 to 8 (ten candidates)",
    "KO-4": "A Great Quake region moves exactly the die result by default",
    "KO-5": "A region slides rigidly along its line in the direction chosen; vacated squares become bare board",
    "KO-6": "Miniatures on a region the Great Quake moves ride along (only with quake_regions all)",
    "KO-7": "One Great Quake move per warband by default",
    "KO-8": "The Great Quake roll also gives mana in chapter 2+ by default",
    "KO-9": "The garbled mana table reads mana = 4 - die: 3, 2, 1, 0",
    "KO-10": "Activation points are a budget; leftover points are lost by default",
    "KO-11": "The miniature is chosen after the movement roll by default",
    "KO-12": "Movement points are the dice sum plus the class's Attack; any number of steps up to them",
    "KO-13": "One change of direction, to any other direction, reversal allowed by default",
    "KO-14": "A step compares only the levels of its two squares (no corner-cutting rule)",
    "KO-15": "Allied miniatures count as one's own by default",
    "KO-16": "Defence is paid in movement points by default (the Spear example)",
    "KO-17": "Entering an enemy without enough movement points for its Defence is illegal",
    "KO-18": "Crystals are captured by ending a move on the Citadel by default; a 0-step activation there counts",
    "KO-19": "The capturer plays first from the next round (at most one capture per round)",
    "KO-20": "The crystal majority is relative by default; a tie goes to the last capturer; no capture is a draw",
    "KO-21": "A warband wiped out loses for its alliance by default",
    "KO-22": "The Colossus can be beaten by default",
    "KO-23": "Always four warbands; two or three players command two allied warbands",
    "KO-24": "Skills live on each warband's board, only grow, no cap by default; unallocated mana returns to supply",
    "KO-25": "Each warband's Colossus has one Titan Weapon, from a ruleset map",
    "KO-26": "Spear and Hammer act after the move; Sword keeps one change of direction; weapons only in the own activation",
    "KO-27": "Titan Powers between activations; Initiative once, before any activation; reborn miniatures rest by default",
    "KO-28": "New mana beyond the pool's 5 goes to skills or back to supply",
    "KO-29": "Set-up order and rounds: skills, placement, Great Quake, then 12 rounds; the set-up crystal is round 1's",
    "KO-30": "A die of destiny is read as its value 1 to 4",
    "KO-31": "The chapter is the ruleset preset: chapter-1, chapter-2, chapter-3 (cumulative)",
    "KO-40": "An illegal event a judge's ruling lets stand: a move puts the miniature on its last square",
}

RULEBOOK = Rulebook("KO", RULES)

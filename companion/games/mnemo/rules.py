"""MnemoGame house rules: every gap, ambiguity or contradiction of the rule book (MN-A01 ..
MN-A18) as a named switch with the default of the rules inventory. Set them in a game's
setup under "house_rules"; `companion rules mnemo` lists them.

    rules = HouseRules.from_dict({"mn.nemo.recipients": "OTHERS_ONLY"})
    rules.nemo_recipients       # 'OTHERS_ONLY'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from companion.games.house_rules import HouseRule, HouseRuleSet, house_rule, rules_of


@dataclass(frozen=True, slots=True)
class HouseRules(HouseRuleSet):
    GAME: ClassVar[str] = "mnemo"

    cards_replacement: Literal["RESHUFFLE", "NO_REPLACEMENT"] = house_rule(
        "RESHUFFLE",
        "mn.cards.replacement",
        "MN-A01",
        "with number cards, the card goes back after every draw, like a roll of the die / the "
        "cards are drawn without replacement until all 12 are used, then reshuffled",
    )
    icecq_wrong_answer: Literal["KEEP_POINTS", "CANCEL_POINTS"] = house_rule(
        "KEEP_POINTS",
        "mn.icecq.wrongAnswer",
        "MN-A02",
        "a wrong ICECQ answer ends the turn and the codex points stand / it ends the turn and "
        "takes back the dicer's codex points of the turn",
    )
    aha_guess_gate: Literal["TARGET_WORD", "ANY_WORD"] = house_rule(
        "TARGET_WORD",
        "mn.aha.guessGate",
        "MN-A03",
        "AHA may be guessed only at a word with a letter chip already exposed / once any "
        "letter chip at the table is exposed",
    )
    nemo_recipients: Literal["ALL_LOWEST", "OTHERS_ONLY"] = house_rule(
        "ALL_LOWEST",
        "mn.nemo.recipients",
        "MN-A04",
        "NEMO gives 5 to every player tied for the lowest score, the dicer included / to the "
        "other players among the lowest only",
    )
    twinner_fail: Literal["TURN_ENDS", "ONE_RIGHT_GOES_ON"] = house_rule(
        "TURN_ENDS",
        "mn.twinner.fail",
        "MN-A05",
        "a TWINNER pair with a wrong letter ends the turn / one right letter of the two is "
        "exposed for 5 and the turn goes on",
    )
    stripper_chooser: Literal["DICER", "OPPONENT"] = house_rule(
        "DICER",
        "mn.stripper.chooser",
        "MN-A06",
        "STRIPPER: the dicer picks the opponent and the chip / the dicer names the opponent, "
        "who picks which chip to expose",
    )
    tail_enders_scope: Literal["ONE_OPPONENT", "EVERY_CHIP"] = house_rule(
        "ONE_OPPONENT",
        "mn.tailEnders.scope",
        "MN-A07",
        "TAIL-ENDERS: the dicer names one opponent, whose first face-down V, W, X or Z chip is "
        "laid bare / every V, W, X and Z chip of every opponent is laid bare",
    )
    expo_dicer_exposes: bool = house_rule(
        True,
        "mn.expo.dicerExposes",
        "MN-A08",
        "EXPO: the dicer exposes a chip too, unless among the lowest scorers / only the other "
        "players expose",
    )
    eight_ball_tie: Literal["TIED_PAYS", "ALONE_ONLY"] = house_rule(
        "TIED_PAYS",
        "mn.eightBall.tie",
        "MN-A09",
        "EIGHT BALL takes 10 from a dicer tied for the highest score / only from a dicer "
        "highest alone",
    )
    letter_codex_select: Literal["ROLL", "PICK"] = house_rule(
        "ROLL",
        "mn.letterCodex.select",
        "MN-A10",
        "the Letter Codex letter for 10 and 11 is rolled on the D12, 0 is A to 11 is L / the "
        "player asking or giving the clue picks it",
    )
    bonus_recipient: Literal["OWNER", "EXPOSER"] = house_rule(
        "OWNER",
        "mn.bonus.recipient",
        "MN-A11",
        "the bonus of a fully exposed word goes to its owner / to the player who exposed its "
        "last letter chip",
    )
    bonus_stack: bool = house_rule(
        True,
        "mn.bonus.stack",
        "MN-A12",
        "the noun or verb bonus and the reversible bonus add up / only the larger applies",
    )
    aha_penalty_trigger: Literal["AHA_CALLED", "LETTER_ON_AHA"] = house_rule(
        "AHA_CALLED",
        "mn.aha.penaltyTrigger",
        "MN-A13",
        "the 20-point penalty is for calling AHA at a chip that is a letter / for a letter "
        "guess that lands on an AHA chip",
    )
    exposed_guess_value: Literal["ALL_FIVE", "DEFAULT_ONLY"] = house_rule(
        "ALL_FIVE",
        "mn.exposedPlayer.guessValue",
        "MN-A14",
        "a player whose word is fully exposed earns 5 for every correct guess, whatever the "
        "codex says / only the default guess value is limited: codex values apply in full",
    )
    division_aha_rule: Literal["MAXIMUM", "EXACT"] = house_rule(
        "MAXIMUM",
        "mn.division.ahaRule",
        "MN-A15",
        "a division's AHA number is the most a word may use / the number every word must use",
    )
    word_guess_exposes: bool = house_rule(
        True,
        "mn.wordGuess.exposes",
        "MN-A16",
        "a right guess of the whole word scores 30 and exposes every chip of it / it scores 30 "
        "and exposes nothing",
    )
    mono_continue: Literal["ENDS", "CONTINUES"] = house_rule(
        "ENDS",
        "mn.mono.continue",
        "MN-A17",
        "MONO: one letter guess for 20, then the turn ends / after a right guess the player "
        "guesses on at 5 each",
    )
    joal_guess: Literal["MEANING", "JOAL"] = house_rule(
        "MEANING",
        "mn.joal.guess",
        "MN-A18",
        "a JOAL chip is guessed by naming the letter or hyphen it stands for / by saying JOAL",
    )


HOUSE_RULES: tuple[HouseRule, ...] = rules_of(HouseRules)

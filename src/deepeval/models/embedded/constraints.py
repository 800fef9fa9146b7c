"""Constraints and aversions a user states ("I'm allergic to peanuts", "I don't eat pork", "I'm vegetarian",
"I hurt my knee") and whether an assistant sentence goes against one (recommends or includes the thing).

``constraint_targets(fact)`` returns the stemmed content words the user must not be offered (empty when the fact
states no constraint). ``violates(targets, sentence)`` is True when a sentence that is not a question mentions a
target without an avoidance cue ("without peanuts", "peanut-free", "no pork", "keep your allergy in mind").
Word lists are ours and deliberately small; they are a feature for the calibrated retention model, not a verdict.
"""

from __future__ import annotations

import re

from deepeval.models.embedded import text as tx

_AVERSION = re.compile(
    r"\b(?:allergic to|allergy to|intolerant to|intolerance to|can(?:no|')?t (?:eat|drink|have|stand|take|do)|"
    r"cannot (?:eat|drink|have|stand|take|do)|(?:do|must|should)(?:n't| not) (?:eat|drink|have|want|like|take|do)|"
    r"avoid(?:ing)?|stay(?:ing)? away from|hate|dislike|not a fan of|no more|off|gave up|quit|afraid of|"
    r"scared of|terrified of|never (?:eat|drink|fly|take|do))\s+(?P<x>[^.,;!?]+)",
    re.IGNORECASE,
)
_ALLERGY_NOUN = re.compile(r"\b(?P<x>[a-z]+(?:\s[a-z]+)?)\s+(?:allergy|intolerance)\b", re.IGNORECASE)
_ALCOHOL = (
    "wine",
    "beer",
    "cocktail",
    "champagne",
    "gin",
    "vodka",
    "rum",
    "whisky",
    "whiskey",
    "alcohol",
    "prosecco",
    "tequila",
    "sangria",
    "margarita",
    "mojito",
    "bourbon",
    "liquor",
    "sake",
)
#: Foods made from milk (what lactose intolerance and a vegan diet rule out).
_DAIRY = (
    "milk",
    "cheese",
    "butter",
    "cream",
    "yogurt",
    "latte",
    "ice cream",
    "dairy",
    "milkshake",
    "cheesecake",
    "custard",
    "gelato",
    "cappuccino",
    "mozzarella",
    "parmesan",
    "fondue",
)
_MEAT_FISH = (
    "meat",
    "beef",
    "chicken",
    "pork",
    "steak",
    "bacon",
    "ham",
    "lamb",
    "turkey",
    "sausage",
    "burger",
    "veal",
    "duck",
    "salami",
    "pepperoni",
    "fish",
    "salmon",
    "tuna",
    "shrimp",
    "prawn",
)
_GROUPS: dict[str, tuple[str, ...]] = {
    r"\bvegetarian\b": _MEAT_FISH,
    r"\bvegan\b": (*_MEAT_FISH, *_DAIRY, "egg", "honey"),
    r"\b(?:lactose|dairy)\b": _DAIRY,
    r"\b(?:gluten|coeliac|celiac)\b": (
        "bread",
        "pasta",
        "wheat",
        "flour",
        "beer",
        "gluten",
        "croissant",
        "bagel",
    ),
    r"\b(?:halal|kosher)\b": ("pork", "bacon", "ham", "sausage", "pepperoni"),
    # "I do not drink." with no object means alcohol ("I do not drink coffee" names its own target)
    r"\bsober\b|\bdon'?t drink\b|\bdo not drink\s*(?:[.,;!]|$)|\bno alcohol\b": _ALCOHOL,
    r"\b(?:knee|ankle|back|hip) (?:injury|pain|surgery)|\bhurt my (?:knee|ankle|back|hip)\b": (
        "run",
        "running",
        "jog",
        "jogging",
        "squat",
        "jump",
        "sprint",
        "hike",
        "hiking",
        "lunge",
    ),
    r"\bafraid of (?:flying|planes)|\bfear of flying\b|\bhate flying\b": ("fly", "flight", "plane"),
    r"\bwheelchair\b": ("stairs", "steps", "hike", "climb"),
    r"\bpregnan": (*_ALCOHOL, "sushi"),
    r"\b(?:quit|gave up|stopped) (?:drinking|alcohol)\b|\bteetotal\b": (*_ALCOHOL, "bar", "pub"),
    r"\b(?:diabetic|diabetes)\b": (
        "sugar",
        "sugary",
        "juice",
        "pastry",
        "soda",
        "candy",
        "sweets",
        "dessert",
        "syrup",
    ),
    r"\b(?:bad|injured|sore) (?:back|knee|ankle|hip)\b": (
        "lift",
        "lifting",
        "carry",
        "run",
        "running",
        "jump",
        "squat",
    ),
}
#: What an aversion to a category covers: applied to the words an aversion names ("allergic to tree nuts",
#: "I avoid caffeine"), never to a fact that merely mentions the category ("I eat fish").
_EXPANSIONS: dict[str, tuple[str, ...]] = {
    r"\b(?:tree )?nuts?\b": (
        "almond",
        "cashew",
        "walnut",
        "pecan",
        "hazelnut",
        "pistachio",
        "macadamia",
        "nut",
    ),
    r"\bshellfish\b": (
        "shrimp",
        "prawn",
        "crab",
        "lobster",
        "mussel",
        "oyster",
        "scallop",
        "clam",
        "langoustine",
    ),
    r"\b(?:fish|seafood)\b": (
        "salmon",
        "tuna",
        "cod",
        "trout",
        "sardine",
        "anchovy",
        "mackerel",
        "haddock",
        "sushi",
    ),
    r"\b(?:alcohol|alcoholic|booze)\b": _ALCOHOL,
    r"\b(?:dairy|lactose)\b": _DAIRY,
    r"\b(?:caffeine|coffee)\b": ("coffee", "espresso", "latte", "cappuccino", "americano", "energy", "cola"),
    r"\b(?:heights|vertigo)\b": (
        "skywalk",
        "rooftop",
        "balcony",
        "zip",
        "bungee",
        "ferris",
        "tower",
        "cliff",
        "ladder",
    ),
}
_AVOID_CUE = re.compile(
    r"\b(?:without|free|no|not|avoid|avoiding|skip|instead|allerg\w*|intoleran\w*|in mind|careful|safe|check|"
    r"substitute|replace|alternative|rather than|other than|except|excluding|away from|vegan|vegetarian|"
    r"plant[- ]based|meatless|dairy[- ]free|non[- ]alcoholic|decaf\w*|mock|faux|imitation)\b|-free\b",
    re.IGNORECASE,
)
#: A question that proposes something ("How about a steak?", "Why not try sushi?") recommends it like a statement.
#: Polite offers that can also check ("Would you like peanuts?") stay questions.
_SUGGESTION = re.compile(
    r"^\s*(?:\w+,\s*)?(?:how about|what about|why not|have you (?:tried|considered)|maybe|perhaps)\b",
    re.IGNORECASE,
)
#: The constraint said back to the user ("since you can't have peanuts", "as you're allergic to shellfish"): naming
#: the thing inside its own prohibition keeps the constraint. Only the phrase and its object (two words) are dropped,
#: so "You can't have peanuts, so try peanut brittle" still offers peanuts.
_RESTATED = re.compile(
    r"\b(?:(?:allergic|allergy|intolerant|intolerance|sensitive|sensitivity) to|(?:can(?:no|')?t|can not|"
    r"must(?:n't| not)|should(?:n't| not)|(?:do|does)(?:n't| not)|won't|will not) (?:eat|drink|have|take|tolerate|"
    r"digest))(?P<x>(?:\s+(?:any|the|a|an))?(?:\s+[\w'-]+){1,2})",
    re.IGNORECASE,
)
_PLANT_MILK = re.compile(
    r"\b(oat|soy|soya|almond|rice|coconut|cashew|hemp|pea|plant)[- ]milk\b", re.IGNORECASE
)
_SOFT_BEER = re.compile(r"\b(?:ginger|root|birch)[- ]beers?\b", re.IGNORECASE)
_WEAK = frozenset(
    {"thing", "stuff", "food", "anything", "something", "it", "them", "that", "this", "much", "really"}
)


def constraint_targets(fact: str) -> frozenset[str]:
    """Stemmed words naming what ``fact`` says the user must avoid (empty when it states no constraint)."""
    out: set[str] = set()
    for m in list(_AVERSION.finditer(fact)) + list(_ALLERGY_NOUN.finditer(fact)):
        words = [w for w in tx.content_words(m.group("x"))[:3] if w not in _WEAK]
        out.update(words)
        for pattern, items in _EXPANSIONS.items():
            if re.search(pattern, m.group("x").lower()):
                out.update(tx.stem(i) for i in items)
    low = fact.lower()
    for pattern, items in _GROUPS.items():
        if re.search(pattern, low):
            out.update(tx.stem(i) for i in items)
    return frozenset(out)


def is_suggestion(sentence: str) -> bool:
    """True for a sentence that offers or recommends something, question form included ("How about a steak?")."""
    return bool(_SUGGESTION.search(tx.normalize_quotes(sentence)))


def violates(targets: frozenset[str], sentence: str) -> bool:
    """True when ``sentence`` (a statement or a suggestion, not an information question such as "Do you eat
    fish?") mentions a target with no avoidance cue, outside a phrase that restates the constraint."""
    if not targets or (tx.is_question(sentence) and not is_suggestion(sentence)):
        return False
    if _AVOID_CUE.search(_SUGGESTION.sub(" ", tx.normalize_quotes(sentence))):  # "why not" is an offer
        return False
    sentence = _without_restatements(targets, sentence)
    # a plant milk is no dairy, though its plant still counts ("almond milk" for a nut allergy)
    sentence = _PLANT_MILK.sub(r"\1 drink", sentence)
    sentence = _SOFT_BEER.sub("soda", sentence)  # "ginger beer" has no alcohol
    return bool(targets & frozenset(tx.content_words(sentence)))


def _without_restatements(targets: frozenset[str], sentence: str) -> str:
    """``sentence`` without the phrases that restate a constraint on one of ``targets`` ("can't eat shellfish")."""

    def drop(m: re.Match[str]) -> str:
        return " " if targets & frozenset(tx.content_words(m.group("x"))) else m.group(0)

    return _RESTATED.sub(drop, tx.normalize_quotes(sentence))


def honours(targets: frozenset[str], sentence: str) -> bool:
    """True when ``sentence`` names a target together with an avoidance cue ("a peanut-free option", "no pork",
    "without butter", "keeping your allergy in mind") or restates the constraint ("since you can't eat pork"): its
    negation is the constraint kept, not a contradiction."""
    if targets and _without_restatements(targets, sentence) != tx.normalize_quotes(sentence):
        return True  # "since you can't have peanuts": the prohibition said back
    if not targets or not _AVOID_CUE.search(sentence):
        return False
    words = frozenset(tx.content_words(sentence))
    # "peanut-free" is one token: its stem before "-free" names the target
    parts = {tx.stem(p) for w in words for p in re.split(r"-", w) if p} | words
    # a word that heads the target names its class: "nut-free" / "without nuts" keeps a peanut allergy
    named = any(t == p or (len(p) >= 3 and t.endswith(p)) for t in targets for p in parts)
    return named or bool(re.search(r"\b(?:allerg\w*|intoleran\w*|diet\w*)\b", sentence, re.I))

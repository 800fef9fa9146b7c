"""The polarity of the clause around a value: does the clause affirm it, or deny, undo, exclude, bound or mock it?

Read as scope, not as a list of phrases: each class below is a family of operators that turns the polarity of the
clause it stands in, and the clause's polarity is the parity of the classes present (a negator over an undoing verb
affirms again: "Porto was never rejected"; a negative subject over an exception: "nobody but Alice Moreau owns
it"). The classes (our own reading of English negation, after the usual grammar of it: negators, negative
quantifiers, negative implicative verbs, privative verbs, exceptives, falsity frames):

* **negators** (:data:`CLAUSE_NEGATION`): "not", "n't", "never", "no longer", "neither ... nor", "used to";
  negative subjects ("nobody", "no one").
* **undoing verbs**: privative verbs with the value as their object or passive subject ("rejected Kestrel", "the
  $52,000 budget was rejected by finance", "will avoid Frankfurt", "was replaced as the vendor"), but not as their
  active subject ("Kestrel replaced Datadog"); verbs that undo their own subject's statement ("Priya Shah stepped
  down", "denied owning it", "failed the review"); negative implicatives ("stopped owning", "failed to open",
  "refused to sign"); predicates of exclusion ("is off the table", "out of the question", "a non-starter");
  attributions of error ("wrongly reported as 2.7%", "the 2.7% figure was a typo"); the unrealised past ("would
  have opened in Porto", "was supposed to", "almost chose").
* **exceptives** (:data:`EXCEPTIVE_BEFORE`): "anywhere but Frankfurt", "every region except Frankfurt", "other
  than", "excluding".
* **falsity frames** (:data:`FALSE_FRAME`): "It is false that ...".
* **taking-back tags**, for the whole sentence (:data:`TAKEN_BACK_TAG`): "..., said nobody ever", "... -- not!".

A bound on a number ("fewer than 14", "over $50,000", "at most 3") does not state the number: :func:`bounded`.
"""

from __future__ import annotations

import re

_ART = r"(?:the\s+|a\s+|an\s+|its\s+|their\s+|his\s+|her\s+|our\s+|this\s+|that\s+)?"
_AUX = (
    r"(?:is|are|was|were|be|been|being|get|gets|got|gotten|has\s+been|have\s+been|had\s+been|will\s+be|would\s+be|"
    r"to\s+be|'s|'re)"
)

#: what may stand inside a phrasal verb: an intensifier ("steering well clear of", "ruled firmly out")
_INSIDE = r"\s+(?:(?:well|right|completely|entirely|totally|firmly|quietly|formally|officially)\s+)?"


def _inflect(verb: str) -> set[str]:
    """A regular verb's forms: base, -s, past and -ing (a doubled final consonant where English doubles it)."""
    v = verb
    if v.endswith("e"):
        return {v, v + "s", v + "d", v[:-1] + "ing"}
    if v.endswith("y") and v[-2] not in "aeiou":
        return {v, v[:-1] + "ies", v[:-1] + "ied", v + "ing"}
    if v.endswith(("s", "x", "z", "ch", "sh", "o")):
        return {v, v + "es", v + "ed", v + "ing"}
    out = {v, v + "s", v + "ed", v + "ing"}
    if re.search(r"[^aeiou][aeiou][bdglmnprt]$", v):  # "scrapped", "cancelling"
        out |= {v + v[-1] + "ed", v + v[-1] + "ing"}
    return out


def _forms(words: str, irregular: str = "") -> str:
    """A regular-expression alternation of the forms of the verbs in ``words`` (";"-separated; a phrasal verb
    inflects its first word: "steer clear of" -> "steering clear of") and the ``irregular`` forms as written,
    longest first so the alternation takes the whole word."""
    out: set[str] = {w.strip().replace(" ", _INSIDE) for w in irregular.split(";") if w.strip()}
    for verb in (w.strip() for w in words.split(";") if w.strip()):
        head, _, rest = verb.partition(" ")
        tail = _INSIDE + rest.replace(" ", _INSIDE) if rest else ""
        out.update(form + tail for form in _inflect(head))
    return "(?:" + "|".join(sorted(out, key=len, reverse=True)) + ")"


#: privative verbs: they deny, remove or refuse their object ("rejected Kestrel") or passive subject ("Kestrel was
#: replaced", "was taken off the rota"); said of an active subject they are about another thing ("Kestrel replaced
#: Datadog")
_PRIVATIVE = _forms(
    "cancel; reject; refuse; veto; scrap; abandon; drop; deny; ditch; axe; dump; remove; terminate; discontinue; "
    "replace; supersede; overrule; overturn; reverse; retire; kill; nix; exclude; avoid; skip; bypass; ban; bar; "
    "block; deprecate; decommission; eliminate; forbid; prohibit; disallow; disqualify; revoke; retract; withdraw; "
    "shelve; dismiss; oust; delete; strike; sack; fire; demote; blacklist; boycott; shun; sideline; decline; "
    "unwind; undo; scrub; bin; spike; torpedo; quash; squash; rescind; void; annul; turn down; call off; rule out; "
    "phase out; vote down; pass over; pass on; say no to; decide against; vote against; steer clear of; "
    "stay away from; walk away from; pull the plug on; back out of; pull out of; opt out of; give up on; "
    "lack; roll back; cross off; cross out; strike off; take off; write off; knock back; shoot down; throw out; "
    "argue against; object to; oppose; contest; protest; resist; campaign against; lobby against; move out of; "
    "move away from; migrate away from; migrate off; exit",
    "forbade; forbidden; withdrew; withdrawn; struck; stricken; undid; undone; said no to; gave up on; given up on; "
    "took off; taken off; wrote off; written off; shot down; threw out; thrown out",
)

#: verbs that undo what their own subject did or was ("Priya Shah stepped down", "Alice Moreau denied it",
#: "Kestrel Systems failed the review"): after the value as its active subject, they negate it
_SELF_UNDOING = _forms(
    "cancel; abandon; reject; decline; refuse; resign; deny; withdraw; quit; scrap; veto; shelve; revoke; drop; "
    "ditch; axe; dump; remove; terminate; discontinue; fail; retract; renege; rescind; rule out; turn down; "
    "call off; drop out; back out; pull out; bow out; opt out; step down; walk away; lose out; fall through; "
    "fall apart; collapse; fizzle out; say no",
    "withdrew; withdrawn; lost out; fell through; fallen through; fell apart; said no",
)

#: a particle split from its verb by the object: "swapped Jenkins out for Buildkite", "voted the plan down"
_SPLIT_VERB = re.compile(
    r"\b(?:swap|phase|rule|call|cross|strike|struck|kick|vote|turn|cut|switch|take|took|taken|write|wrote|written|"
    r"price|edge|squeeze|shut|throw|threw|thrown|knock|shoot|shot)\w*\s+" + _ART + r"(?:[\w'-]+\s+){0,2}$",
    re.IGNORECASE,
)
_SPLIT_PARTICLE = re.compile(r"^\s*(?:out|off|down)\b", re.IGNORECASE)

#: a negative implicative: the verb after it did not happen ("stopped owning", "failed to open", "refused to sign",
#: "never managed to"); an object can stand between ("avoided using Kestrel")
_IMPLICATIVE = re.compile(
    r"\b(?:"
    + _forms("stop; cease; quit; avoid; refrain from; give up", "gave up")
    + r"\s+\w+ing|"
    + _forms("fail; neglect; refuse; decline; forget; cease; hesitate", "forgot; forgotten")
    + r"\s+to|(?:was|were|is|are)\s+unable\s+to)\b",
    re.IGNORECASE,
)

#: a predicate that excludes its subject: "Kestrel Systems is off the table", "Porto is out of the question"
_EXCLUDED = (
    r"(?:off\s+the\s+table|out\s+of\s+(?:the\s+)?(?:question|running|picture|race|frame)|(?:a\s+)?no-go|"
    r"(?:a\s+)?non-?starter|dead\s+in\s+the\s+water|(?:a\s+)?dead\s+end|history|a\s+thing\s+of\s+the\s+past|"
    r"(?:a\s+|an\s+)?(?:typo|mistake|error|misprint|misreading|misunderstanding)|wrong|incorrect|inaccurate|bogus|"
    r"false|untrue|mistaken|obsolete|out\s+of\s+date|outdated|stale|void|invalid|out(?=\s+as\b))"
)

#: what may stand between a value and its verb: the rest of its noun phrase ("The $52,000 monthly cloud budget was
#: rejected"), no finite verb, no clause mark (the right context is one clause already)
_NP_GAP = r"(?:(?!(?:is|are|was|were|has|have|had|will|would|did|does|do|can|could|should|may|might)\b)[\w'$%.,-]+\s+){0,10}?"

_UNDONE_AFTER = re.compile(
    rf"^\s*{_NP_GAP}(?:{_AUX}\s+(?:\w+ly\s+)?{_PRIVATIVE}|{_SELF_UNDOING}|{_AUX}\s+(?:now\s+|officially\s+|"
    rf"definitely\s+|clearly\s+|simply\s+|just\s+)?{_EXCLUDED})\b",
    re.IGNORECASE,
)

#: the value as the object of a privative verb, a few words of its noun phrase between ("rejected the Kestrel
#: Systems bid", "will avoid Frankfurt"), not after a preposition that gives it another role ("replaced Datadog
#: with Kestrel")
_UNDONE_BEFORE = re.compile(
    rf"\b{_PRIVATIVE}\s+{_ART}(?:(?!with\b|by\b|for\b|to\b|in\b|from\b|but\b|except\b|than\b)[\w'-]+\s+){{0,2}}$",
    re.IGNORECASE,
)

#: a "no" or "without" right before the value negates it ("No PostgreSQL 16 for the ledger service")
_NO_BEFORE = re.compile(r"\b(?:no|without)\s+(?:the\s+|a\s+|an\s+)?$", re.IGNORECASE)

#: an attribution of error before the value: "wrongly reported as 2.7%", "mistakenly listed Priya Shah"
_ERROR_BEFORE = re.compile(
    r"\b(?:wrongly|falsely|mistakenly|incorrectly|erroneously|inaccurately|wrongfully)\s+(?:\w+\s+){0,2}?"
    r"(?:as\s+|at\s+|to\s+be\s+|that\s+)?" + _ART + r"$",
    re.IGNORECASE,
)

#: an attribution of error after the value, its passive subject: "Alice Moreau was incorrectly listed as the owner"
_ERROR_AFTER = re.compile(
    rf"^\s*{_NP_GAP}{_AUX}\s+(?:wrongly|falsely|mistakenly|incorrectly|erroneously|inaccurately|wrongfully)\b",
    re.IGNORECASE,
)

_ERROR_WORD = re.compile(
    r"\b(?:wrongly|falsely|mistakenly|incorrectly|erroneously|inaccurately|wrongfully)\b", re.I
)

#: the past that did not happen: "would have opened in Porto", "was supposed to ship by", "almost chose Kestrel"
#: ("almost" and "nearly" before a number are a hedge, not this: see :func:`clause_negates`)
_UNREALISED = re.compile(
    r"\b(?:would|could|should|might)\s+have\b|\b(?:was|were)\s+(?:supposed|meant)\s+to\b|"
    r"\b(?:almost|nearly|came\s+close\s+to)\s+(?!\d)\w+",
    re.IGNORECASE,
)

#: the value as the subject of an unrealised past: "Harbor Ventures was supposed to lead the seed"
_UNREALISED_AFTER = re.compile(
    rf"^\s*{_NP_GAP}(?:(?:was|were)\s+(?:supposed|meant|going)\s+to|(?:would|could|should|might)\s+have)\b",
    re.IGNORECASE,
)

#: negators of the clause's statement, also negative subjects ("nobody picked Kestrel"); a bare "no" or "without"
#: negates a thing, not the statement ("no problem"), except right before the value (:data:`_NO_BEFORE`)
CLAUSE_NEGATION = re.compile(
    r"\b(?:not(?!\s+only\b)|never|no\s+longer|(?:is|was|are|were|do|does|did|has|have|had|wo|ca|could|would|should)"
    r"n['\u2019]t|cannot|neither|nor|(?<!\bis\s)(?<!\bare\s)(?<!\bwas\s)(?<!\bwere\s)(?<!\bbe\s)(?<!\bbeen\s)"
    r"(?<!\bget\s)(?<!\bgot\s)used\s+to|nobody|no[\s-]one|nicht|(?:ne|n['\u2019])\s*\w+\s+(?:pas|jamais|plus)\b)\b",
    re.IGNORECASE,
)

#: an exception right before the value: "anywhere but Frankfurt", "every region except Frankfurt", "other than"
EXCEPTIVE_BEFORE = re.compile(
    r"(?:\b(?:any|every|all|each)\w*(?:\s+[\w'-]+){0,2}?\s+(?:but|save)|\bexcept(?:\s+for)?|\bexcluding|"
    r"\bother\s+than|\bapart\s+from|\bsave\s+for|\bnot\s+including|\bwith\s+the\s+exception\s+of|\bminus)\s+"
    + _ART
    + r"$",
    re.IGNORECASE,
)

#: a frame that says the statement after it is false ("It is false that ...", "It is not true that ...")
FALSE_FRAME = re.compile(
    r"\b(?:false|untrue|not\s+true|not\s+the\s+case|wrong|incorrect|a\s+myth|"
    r"(?:disput|den(?:y|ies|ied|ying)|doubt|contest|refut|challeng|question)\w*)(?:\s+that)?\s",
    re.IGNORECASE,
)

#: a tag that takes the whole sentence back: "..., said nobody ever", "... -- not!", "..., yeah right"
TAKEN_BACK_TAG = re.compile(
    r"(?:,|\s-{1,2}|\u2013|\u2014)\s*(?:(?:said|says|say)\s+(?:nobody|no[\s-]one|no\s+one\s+ever)(?:\s+ever)?|"
    r"not!|yeah,?\s+right|as\s+if|in\s+your\s+dreams)\s*[.!]*\s*$",
    re.IGNORECASE,
)


#: the start of a predicate that denies or undoes, with no subject of its own ("... but ultimately passed over",
#: "... but said no", "... but was never signed")
NEGATING_PREDICATE = re.compile(
    r"^\s*(?:(?:ultimately|eventually|then|later|finally|quickly|soon|was|were|is|are|got|has\s+been|had\s+been|"
    rf"did|does|do|has|have|had|will|would)\s+)*(?:not|never|\w+n['\u2019]t|{_PRIVATIVE}|{_SELF_UNDOING})\b",
    re.IGNORECASE,
)


def undone(left: str, right: str, number: bool = False) -> bool:
    """The value is undone: the object or passive subject of a privative verb, the subject of a self-undoing one, an
    excluded or erroneous value, the object of a negative implicative or an unrealised past."""
    if _UNDONE_BEFORE.search(left) or _UNDONE_AFTER.search(right) or _NO_BEFORE.search(left):
        return True
    if _ERROR_BEFORE.search(left) or _ERROR_AFTER.search(right):
        return True
    if _IMPLICATIVE.search(left) or _IMPLICATIVE.search(right[:40]):
        return True
    if _UNREALISED_AFTER.search(right) or (_SPLIT_VERB.search(left) and _SPLIT_PARTICLE.search(right)):
        return True
    unreal = _UNREALISED.search(left)
    return bool(unreal) and not (number and re.search(r"\b(?:almost|nearly)\s+\S*$", left, re.IGNORECASE))


def clause_negates(left: str, right: str, *, number: bool = False, sentence_left: str | None = None) -> bool:
    """The clause around a value (``left`` of it, ``right`` of it) does not affirm it: the parity of the classes
    present (module docstring). ``number``: the value is a number ("almost 14" is a hedge); ``sentence_left``: the
    sentence before the value, where an exception is read ("anywhere but": ``left`` ends at a "but")."""
    if sentence_left is not None and EXCEPTIVE_BEFORE.search(sentence_left):
        left = re.split(r",\s|\s-{1,2}\s|\u2013|\u2014", sentence_left)[-1]
    frame = FALSE_FRAME.search(left)
    if frame is not None:
        # a negated frame affirms what follows it ("Nobody disputes that ...", "I don't doubt that ...")
        before = left[: frame.start()]
        denied_frame = bool(CLAUSE_NEGATION.search(before) or re.search(r"\bno\s*$", before, re.IGNORECASE))
        left = left[frame.end() :]
        frame = None if denied_frame else frame
    classes = (
        bool(CLAUSE_NEGATION.search(f"{left} {right}")),
        undone(left, right, number),
        bool(EXCEPTIVE_BEFORE.search(left)),
        frame is not None,
    )
    return sum(classes) % 2 == 1


#: a matter not settled: "still pending approval", "no decision has been made", "ended without a contract", "TBD"
UNSETTLED = re.compile(
    r"\b(?:pending|await(?:s|ing)?|under\s+(?:review|consideration|discussion)|undecided|unconfirmed|unapproved|tbd|"
    r"to\s+be\s+(?:decided|confirmed|determined|agreed)|up\s+in\s+the\s+air|on\s+hold|"
    r"not\s+(?:yet\s+)?(?:been\s+)?(?:decided|confirmed|approved|agreed|signed|finali[sz]ed)|"
    r"no\s+(?:final\s+)?(?:decision|agreement|approval|sign-?off|go-ahead)|"
    r"without\s+(?:a\s+|an\s+|any\s+)?(?:final\s+)?(?:contract|deal|agreement|decision|approval|sign-?off|offer|"
    r"commitment|go-ahead))\b",
    re.IGNORECASE,
)
#: a decision stated in the same clause outweighs a pending detail ("PostgreSQL 16 was chosen, pending a review")
DECIDED = re.compile(
    r"\b(?:chose|chosen|picked|selected|approved|decided|confirmed|signed|agreed|appointed|named|hired|won|"
    r"went\s+with|"
    r"opted\s+for|settled\s+on)\b",
    re.IGNORECASE,
)


def unsettled(clause: str) -> bool:
    """``clause`` (a value's clause and the rest of its sentence) says the matter is not settled and states no
    decision ("A $52,000 budget was requested and is still pending approval")."""
    return bool(UNSETTLED.search(clause)) and not DECIDED.search(clause)


def polarity_cue(text: str) -> bool:
    """``text`` has an operator of one of the classes (a cheap pre-check: a text without one affirms)."""
    return bool(
        CLAUSE_NEGATION.search(text)
        or re.search(rf"\b(?:{_PRIVATIVE}|{_SELF_UNDOING})\b", text, re.IGNORECASE)
        or _IMPLICATIVE.search(text)
        or re.search(rf"\b{_EXCLUDED}\b", text, re.IGNORECASE)
        or _ERROR_WORD.search(text)
        or _UNREALISED.search(text)
        or _EXCEPTIVE_WORD.search(text)
        or FALSE_FRAME.search(text)
        or TAKEN_BACK_TAG.search(text)
        or CORRECTION_WORD.search(text)
        or UNSETTLED.search(text)
        or (_SPLIT_VERB_WORD.search(text) and re.search(r"\b(?:out|off|down)\b", text, re.IGNORECASE))
    )


#: the words of the classes that :func:`polarity_cue` looks for without their anchors
_EXCEPTIVE_WORD = re.compile(EXCEPTIVE_BEFORE.pattern.replace(r"\s+" + _ART + "$", r"\b"), re.IGNORECASE)
_SPLIT_VERB_WORD = re.compile(_SPLIT_VERB.pattern.split(r"\w*")[0], re.IGNORECASE)
#: a self-correction: "B214 - correction, B241", "but that was a mix-up"
CORRECTION_WORD = re.compile(
    r"\b(?:correction|corrected|mix-?up|typo|scratch\s+that|make\s+that|strike\s+that|i\s+mean)\b",
    re.IGNORECASE,
)


#: a strict bound excludes the number: "fewer than 14", "over $50,000" (an inclusive one, "at least 14", "up to three
#: crates", includes it and often is the fact itself, a limit: tests/memory/test_grade_rules.py)
_STRICT_BOUND = (
    r"(?:(?:fewer|less|more|greater|lower|higher|bigger|smaller|larger)\s+than|over|under|below|above|beyond|"
    r"upwards\s+of|north\s+of|south\s+of|shy\s+of|short\s+of|in\s+excess\s+of|exceed(?:s|ed|ing)?)"
)
_BOUND = re.compile(
    rf"\b(?<!\bno\s)(?<!\bnot\s){_STRICT_BOUND}\s+(?:just\s+|about\s+|around\s+|roughly\s+|well\s+)?$|[<>]\s*$",
    re.IGNORECASE,
)
#: a text that states a bound itself ("more than 3 retries"): a bound in the answer may then be the value
BOUND_WORD = re.compile(rf"\b{_STRICT_BOUND}\b|[<>]", re.IGNORECASE)


def bounded(text: str, value: str) -> bool:
    """Every mention of the number ``value`` in ``text`` is given only as a strict bound ("fewer than 14 engineers",
    "over $50,000"), and there is one."""
    hits = list(re.finditer(rf"(?<![\w.]){re.escape(value)}(?!\w)", text, flags=re.IGNORECASE))
    return bool(hits) and all(_BOUND.search(text[max(0, m.start() - 40) : m.start()]) for m in hits)

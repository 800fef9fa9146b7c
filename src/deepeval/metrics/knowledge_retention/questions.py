"""System One questions of :class:`KnowledgeRetentionMetric` (our own wording). Bump ``QUESTION_SET_VERSION`` on any
change: it feeds the cache key. Override with ``question_set=`` an object with the same static methods.

Hybrid decisions: yes = the assistant turn shows knowledge attrition (so P(yes) >= 0.5 counts against the score).
The request state says once what counts as attrition and how corrections work (``note``: the data notice
:data:`deepeval.metrics.delimit.STATE_NOTE` followed by :data:`DECISION_RULES`) and holds every fact once
(``facts``); each question names the facts known by its turn by position and quotes only its own messages, between
markers. system_one questions are phrased so that yes = good ("no assistant turn
forgets..."), and travel with the raw conversation as the request state (JSON, so content cannot forge structure).
``kind`` and ``data`` stay on each question for local judges and never go over the wire."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from deepeval.metrics._engine.system_one import WeightedQuestion
from deepeval.metrics.delimit import STATE_NOTE, quote, quote_list
from deepeval.metrics.knowledge_retention import names
from deepeval.metrics.knowledge_retention.prompts import CORRECTIONS_RULE
from deepeval.models.system_one import kinds
from deepeval.models.system_one.schema import NoulQuestion, ScoreQuestion

QUESTION_SET_VERSION = "knowledge_retention-q/2026-6"

RETENTION_LEVELS = [
    "forgets most facts",
    "forgets several facts",
    "forgets one minor fact",
    "keeps every fact",
]

#: What every hybrid decision asks, said once per request in the state's ``note``.
DECISION_RULES = (
    "Each question names the facts a user had stated so far in a conversation with an AI assistant (positions in "
    "`facts`), and shows the user's message just before (when there is one) and the assistant's next message. "
    "Knowledge attrition: that message forgets or contradicts one of the facts, or asks again for information the "
    "facts already give; asking to clarify or confirm something does not count. " + CORRECTIONS_RULE
)

#: The hybrid request's ``note``: the data notice, then :data:`DECISION_RULES`.
DECISION_NOTE = f"{STATE_NOTE}\n{DECISION_RULES}"


class KnowledgeRetentionQuestions:
    """``turn_attrition`` (hybrid decisions) and ``whole_metric`` (system_one mode)."""

    VERSION = QUESTION_SET_VERSION

    @staticmethod
    def turn_attrition(
        facts: Sequence[str],
        assistant_message: str,
        user_message: str | None,
        fact_ids: Sequence[int] | None = None,
        conversation: Sequence[Mapping[str, str]] | None = None,
        turn_index: int | None = None,
    ) -> NoulQuestion:
        """Yes = the assistant message forgets/contradicts a known fact or re-asks for it (kind ``turn_attrition``).
        What counts as attrition is said once, in the request state's ``note`` (:data:`DECISION_NOTE`).

        ``fact_ids``: the facts' positions in the state's ``facts`` list, which then carries every fact once for
        all the questions of the request (a conversation's facts would otherwise be repeated, growing, in each
        turn's question); without it the facts are quoted here.

        ``conversation`` and ``turn_index``: the whole conversation (one list shared by every question of the
        request) and this message's position in it, for local judges that read the turns before the message (the
        embedded judge's reader); they travel in ``data`` only, never over the wire."""
        last_user = f"User's message just before:\n{quote('user', user_message)}\n" if user_message else ""
        data: dict[str, object] = {"facts": list(facts), "assistant_message": assistant_message}
        if user_message is not None:
            data["user_message"] = user_message
        if conversation is not None and turn_index is not None:
            data["conversation"] = conversation
            data["turn_index"] = turn_index
        known = (
            f"Facts: `facts` {', '.join(str(i) for i in fact_ids)}\n"
            if fact_ids is not None
            else f"Facts, oldest first:\n{quote_list('facts', facts, indent=None)}\n"
        )
        return NoulQuestion(
            instructions=(
                f"{known}{last_user}Assistant's next message:\n"
                f"{quote('assistant', assistant_message)}\nDoes this message show knowledge attrition?"
            ),
            kind=kinds.TURN_ATTRITION,
            data=data,
        )

    @staticmethod
    def whole_metric(turns: Sequence[Mapping[str, str]]) -> list[WeightedQuestion]:
        """Three questions over the state ``{"turns": [...]}``: yes/no (weights 2, 1, yes = good) and a
        score."""
        data = {"turns": [dict(t) for t in turns]}
        return [
            WeightedQuestion(
                "no_forgetting",
                2.0,
                NoulQuestion(
                    instructions="In `turns`, does every assistant turn stay consistent with the facts the user stated "
                    "earlier (a correction replaces the old fact)?",
                    kind=names.NO_FORGETTING,
                    data=data,
                ),
                "no assistant turn forgets or contradicts a fact the user stated earlier",
            ),
            WeightedQuestion(
                "no_reasking",
                1.0,
                NoulQuestion(
                    instructions="In `turns`, does the assistant never re-ask for information the user already gave "
                    "(clarifying or confirming is fine)?",
                    kind=names.NO_REASKING,
                    data=data,
                ),
                "no assistant turn asks again for information the user already gave",
            ),
            WeightedQuestion(
                "retention_level",
                1.0,
                ScoreQuestion(
                    instructions="In `turns`, how well does the assistant keep the user's facts?",
                    levels=list(RETENTION_LEVELS),
                    kind=names.RETENTION_LEVEL,
                    data=data,
                ),
                "how well the assistant keeps the user's facts",
            ),
        ]

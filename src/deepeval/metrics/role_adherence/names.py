"""Role adherence's names shared by its modules: its own System One question kinds and the test-case fields it needs."""

#: hybrid: does this assistant turn stay in character?
TURN_IN_CHARACTER = "role_adherence.turn_in_character"
#: whole-metric kinds (system_one mode): noul weight 2, noul weight 1, a 4-level adherence level
ALL_IN_CHARACTER = "role_adherence.all_in_character"
NEVER_BREAKS = "role_adherence.never_breaks"
ADHERENCE_LEVEL = "role_adherence.adherence_level"

#: the test-case fields a measure needs: the turns and the test case's ``chatbot_role``
REQUIRED_PARAMS = ("turns", "chatbot_role")

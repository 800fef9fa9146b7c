"""Prompt alignment's names shared by its modules: its own System One question kinds and the test-case fields it
needs."""

#: hybrid and system_one: does the output follow this prompt instruction? (system_one asks it once per instruction)
INSTRUCTION_FOLLOWED = "prompt_alignment.instruction_followed"

#: the test-case fields a measure needs
REQUIRED_PARAMS = ("input", "actual_output")

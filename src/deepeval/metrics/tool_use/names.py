"""Tool use's names shared by its modules."""

#: the test-case fields a measure needs: the turns (deepeval 4.3.1 checks each turn's role and content)
REQUIRED_PARAMS = ("turns",)
#: hybrid judgements per exchange (5 levels each)
SELECTION = "tool_use.selection"
ARGUMENTS = "tool_use.arguments"
#: whole-metric kinds (system_one mode): two yes/no questions, weight 1 each
ALL_SELECTED_WELL = "tool_use.all_selected_well"
ALL_ARGUMENTS_RIGHT = "tool_use.all_arguments_right"

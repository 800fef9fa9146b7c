"""Goal accuracy's names shared by its modules."""

#: the test-case fields a measure needs: the turns (deepeval 4.3.1 checks each turn's role and content)
REQUIRED_PARAMS = ("turns",)
#: hybrid judgements per user-assistant exchange (5 levels each)
GOAL_ACHIEVED = "goal_accuracy.goal_achieved"
PLAN_FOLLOWED = "goal_accuracy.plan_followed"
#: whole-metric kinds (system_one mode): noul weight 2, two 5-level scores
EVERY_GOAL = "goal_accuracy.every_goal"
GOAL_LEVEL = "goal_accuracy.goal_level"
PLAN_LEVEL = "goal_accuracy.plan_level"

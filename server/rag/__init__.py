"""A Question in; Sources, Delta and Finished(answer) events out:
context → rank → gate → generate → validate (pipeline.py)."""

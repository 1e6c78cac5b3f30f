"""The trusted side of a grading run: planning jobs, computing keys, judging reports."""

"""The book, the releases and the learner's kit: what learners read and download."""

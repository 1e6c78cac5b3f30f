"""Each chapter's exercises and cases, its closed-book companion's beside it."""

"""What every exercise's cases stand on: declaring cases, observing answers, encoding values, the drivers."""

"""Taking submissions in: bounds, names, admission, reconciling a class."""

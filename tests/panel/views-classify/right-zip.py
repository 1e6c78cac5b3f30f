# Replace each ... with your answer.
keys = ("transpose", "basic_slice", "advanced_index", "boolean_mask", "view",
        "reshape", "contiguous", "expand", "clone", "detach")
answers = "view view copy copy view ambiguous ambiguous view copy view".split()
CLASSIFY = dict(zip(keys, answers, strict=True))

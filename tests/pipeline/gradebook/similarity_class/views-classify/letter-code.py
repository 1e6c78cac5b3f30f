order = "transpose basic_slice advanced_index boolean_mask view reshape contiguous expand clone detach".split()
code = "VVCCVAAVCV"
word = {"V": "view", "C": "copy", "A": "ambiguous"}
CLASSIFY = {op: word[letter] for op, letter in zip(order, code)}

order = "unflatten index_select broadcast_to repeat ravel diag view_dtype flip reshape_as atleast_3d".split()
code = "VCVCACVCAV"
word = {"V": "view", "C": "copy", "A": "ambiguous"}
CLASSIFY = {op: word[letter] for op, letter in zip(order, code)}

"""Answer source for values that claim to equal anything: a str, an int, a float and a tuple whose
``==`` always answers True (each catalogue's ``always-equal`` exploit starts with it)."""

ALWAYS_EQUAL = """
class YesStr(str):
    def __eq__(self, other):
        return True

    __hash__ = str.__hash__


class YesInt(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


class YesFloat(float):
    def __eq__(self, other):
        return True

    __hash__ = float.__hash__


class YesTuple(tuple):
    def __eq__(self, other):
        return True

    __hash__ = tuple.__hash__


"""

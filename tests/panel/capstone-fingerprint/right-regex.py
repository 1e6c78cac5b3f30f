import re


def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
    except Exception as err:
        found = re.match(r"(.*?)(?: Hint:|\Z)", str(err), flags=re.DOTALL)
        return type(err).__name__, found.group(1)
    return None

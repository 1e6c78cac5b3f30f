import sys


def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
        return None
    except Exception:
        kind, value, _ = sys.exc_info()
        text = str(value)
        head = text.index(" Hint:") if " Hint:" in text else len(text)
        return tuple([kind.__name__, text[:head]])

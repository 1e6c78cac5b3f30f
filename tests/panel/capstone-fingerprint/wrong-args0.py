def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
    except Exception as err:
        return type(err).__name__, err.args[0].partition(" Hint:")[0]
    return None

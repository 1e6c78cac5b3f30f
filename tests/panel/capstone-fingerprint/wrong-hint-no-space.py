def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
    except Exception as err:
        return type(err).__name__, str(err).split("Hint:")[0]
    return None

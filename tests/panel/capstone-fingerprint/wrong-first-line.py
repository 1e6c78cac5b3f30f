def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
    except Exception as err:
        first_line = str(err).splitlines()[0] if str(err) else ""
        return type(err).__name__, first_line.partition(" Hint:")[0]
    return None

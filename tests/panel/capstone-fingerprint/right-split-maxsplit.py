def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    caught = None
    try:
        fn()
    except Exception as err:  # any Exception, not only RuntimeError
        caught = err
    if caught is None:
        return None
    message = str(caught)
    before_hint = message.split(" Hint:", 1)[0]
    return (caught.__class__.__name__, before_hint)

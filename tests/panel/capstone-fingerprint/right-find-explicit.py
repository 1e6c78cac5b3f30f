def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
    except Exception as err:
        message = str(err)
        cut = message.find(" Hint:")
        if cut == -1:  # no hint: the whole message
            cut = len(message)
        return (type(err).__name__, message[:cut])
    else:
        return None

def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    try:
        fn()
    except Exception as err:
        message = str(err)
        return type(err).__name__, message[: message.find(" Hint:")]
    return None

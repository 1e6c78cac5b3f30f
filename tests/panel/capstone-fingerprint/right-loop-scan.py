def fingerprint(fn):
    """A tuple (type name, message before " Hint:") of the error fn() raises, or None."""
    marker = " Hint:"
    try:
        fn()
    except Exception as err:
        message = str(err)
        head = message
        for start in range(len(message) - len(marker) + 1):
            if message[start:start + len(marker)] == marker:
                head = message[:start]
                break
        return (type(err).__name__, head)
    return None

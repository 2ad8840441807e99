# call: collect()
def inner():
    yield "a"
    yield "b"
    return "inner done"


def outer():
    result = yield from inner()
    yield result


def collect():
    return [x for x in outer()]

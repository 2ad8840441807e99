# call: take()
def counter():
    yield 1
    yield 2


def take():
    g = counter()
    a = next(g)
    b = next(g)
    try:
        next(g)
    except StopIteration:
        c = "done"
    return a, b, c

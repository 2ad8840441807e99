# call: outer()
def parse(s):
    try:
        return int(s)
    except ValueError as e:
        raise RuntimeError("bad number " + s) from e


def outer():
    vals = []
    for s in ["1", "x", "3"]:
        try:
            vals.append(parse(s))
        except RuntimeError:
            vals.append(None)
    return vals

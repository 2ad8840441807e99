# call: pairs([1, 2, 3])
def each(xs):
    for x in xs: yield x


def pairs(xs):
    out = []
    for a in each(xs):
        out.append((a, a * a))
    return out

# call: go([1, 2, 3, 4])
def inc(x):
    return x + 1


def odd(x):
    return x % 2 == 1


def go(xs):
    ys = list(map(inc, xs))
    zs = list(filter(odd, ys))
    return ys, zs

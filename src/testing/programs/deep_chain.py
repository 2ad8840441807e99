# call: level1(2)
def level3(x):
    y = x * 3
    return y


def level2(x):
    z = level3(x) + 1
    return z


def level1(x):
    w = level2(x)
    w += level3(w)
    return w

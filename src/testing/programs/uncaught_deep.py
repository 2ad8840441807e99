# call: a()
def c():
    return {}["missing"]


def b():
    x = 1
    return c()


def a():
    y = b()
    return y

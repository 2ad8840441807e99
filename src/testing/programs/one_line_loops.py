# call: f([1, 2, 3])
def f(xs):
    t = 0
    for x in xs: t += x
    i = 0
    while i < 3: i += 1
    a = 1; b = 2; c = a + b
    return t + i + c

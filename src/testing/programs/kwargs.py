# call: call_all()
def describe(*args, sep="-", **kw):
    parts = [str(a) for a in args]
    parts += [f"{k}={v}" for k, v in sorted(kw.items())]
    return sep.join(parts)


def call_all():
    a = describe(1, 2)
    b = describe("x", sep="+", z=1, y=2)
    return a, b

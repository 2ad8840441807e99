# call: conv(["1", "a"])
def conv(items):
    out = []
    for s in items:
        try:
            n = int(s)
        except ValueError:
            out.append("bad")
        else:
            out.append(n)
        finally:
            out.append("|")
    return out

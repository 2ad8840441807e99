# call: apply_all(5)
def apply_all(x, fns=None):
    if fns is None:
        fns = [lambda v: v + 1, lambda v: v * 2]
    results = []
    for fn in fns:
        results.append(fn(x))
    return results

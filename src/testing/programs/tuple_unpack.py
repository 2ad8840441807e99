# call: swap_pairs([(1, 2), (3, 4)])
def swap_pairs(pairs):
    result = []
    for a, b in pairs:
        a, b = b, a
        result.append((a, b))
    first, *rest = result
    return first, rest

# call: scan([4, -1, 7, 0, 9])
def scan(xs):
    seen = []
    for x in xs:
        if x < 0:
            continue
        if x == 0:
            break
        seen.append(x)
    else:
        seen.append("no break")
    return seen

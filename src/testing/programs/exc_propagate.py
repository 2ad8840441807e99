# call: top(3)
def bottom(n):
    if n == 0:
        raise ValueError("reached zero")
    return bottom(n - 1)


def middle(n):
    return bottom(n)


def top(n):
    try:
        return middle(n)
    except ValueError as e:
        return "caught " + str(e)

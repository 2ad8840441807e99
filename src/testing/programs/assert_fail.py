# call: check(3)
def check(n):
    assert n % 2 == 0, "odd number"
    return n // 2

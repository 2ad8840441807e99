# call: check([3, 8, 1])
def check(xs):
    big = any(x > 5 for x in xs)
    total = sum(x for x in xs if x % 2)
    return big, total

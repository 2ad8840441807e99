# title: Comprehensions (inlined since Python 3.12)
# call: stats(6)
def stats(n):
    evens = [x for x in range(n) if x % 2 == 0]
    squares = {x: x * x for x in evens}
    total = sum(v for v in squares.values())
    return evens, squares, total

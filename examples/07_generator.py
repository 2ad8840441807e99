# title: A generator, resumed again and again
# call: first_squares(4)
def squares(limit):
    n = 1
    while n <= limit:
        yield n * n
        n += 1


def first_squares(k):
    got = []
    for sq in squares(k):
        got.append(sq)
    return got

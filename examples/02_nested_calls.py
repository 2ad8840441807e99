# title: Nested calls
# call: describe(7)
def square(x):
    return x * x


def double(x):
    return x + x


def describe(n):
    a = square(n)
    b = double(a)
    return f"{n}^2 * 2 = {b}"

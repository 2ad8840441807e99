# title: Recursion: factorial
# call: factorial(4)
def factorial(n):
    if n <= 1:
        return 1
    rest = factorial(n - 1)
    return n * rest

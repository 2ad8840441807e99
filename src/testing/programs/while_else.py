# call: find(10)
def find(n):
    i = 2
    while i * i <= n:
        if n % i == 0:
            return i
        i += 1
    else:
        return n

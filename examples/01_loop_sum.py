# title: A for loop that sums
# call: total([3, 1, 4, 1, 5])
def total(numbers):
    s = 0
    for n in numbers:
        s += n
    return s

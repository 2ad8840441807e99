# title: An exception nobody catches
# call: average([])
def average(values):
    total = sum(values)
    return total / len(values)

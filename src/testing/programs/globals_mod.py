# call:
counter = 0


def bump():
    global counter
    counter += 1
    return counter


for _ in range(3):
    bump()
total = counter * 10
print("total", total)

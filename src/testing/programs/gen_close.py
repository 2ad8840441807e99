# call: early()
def numbers():
    try:
        n = 0
        while True:
            yield n
            n += 1
    finally:
        done = True


def early():
    got = []
    for n in numbers():
        if n > 2:
            break
        got.append(n)
    return got

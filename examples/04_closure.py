# title: Closures keep their variables
# call: run()
def make_counter(start):
    count = start

    def bump(step):
        nonlocal count
        count += step
        return count

    return bump


def run():
    counter = make_counter(10)
    first = counter(1)
    second = counter(5)
    return [first, second]

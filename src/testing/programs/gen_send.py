# call: run_avg()
def averager():
    total = 0
    count = 0
    avg = None
    while True:
        value = yield avg
        total += value
        count += 1
        avg = total / count


def run_avg():
    g = averager()
    next(g)
    g.send(10)
    r = g.send(20)
    g.close()
    return r

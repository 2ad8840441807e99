# call: run(0)
def risky(d):
    try:
        r = 10 / d
    finally:
        cleanup = True
    return r


def run(d):
    try:
        return risky(d)
    except ZeroDivisionError:
        return -1

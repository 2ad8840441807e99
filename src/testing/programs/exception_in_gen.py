# call: consume()
def risky_gen():
    yield 1
    raise ValueError("gen broke")


def consume():
    seen = []
    try:
        for v in risky_gen():
            seen.append(v)
    except ValueError as e:
        seen.append(str(e))
    return seen

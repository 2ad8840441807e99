# call: build(3)
def build(n):
    data = {
        "n": n,
        "sq": n * n,
    }
    total = (data["n"]
             + data["sq"])
    return total

# call: order(["pear", "fig", "banana"])
def keyfn(word):
    return (len(word), word)


def order(words):
    by_len = sorted(words, key=keyfn)
    by_last = sorted(words, key=lambda w: w[-1])
    return by_len, by_last

# call: compare("hello", "world")
def compare(a, b):
    sa, sb = set(a), set(b)
    both = sa & sb
    only_a = sa - sb
    return sorted(both), sorted(only_a), len(sa | sb)

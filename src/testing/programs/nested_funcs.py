# call: outer(4)
def outer(n):
    def helper(k):
        def leaf(j):
            return j * 2
        return leaf(k) + 1
    acc = []
    for i in range(n):
        acc.append(helper(i))
    return acc

# title: An exception that is caught
# call: safe_ratios([4, 0, 2])
def ratio(a, b):
    return a / b


def safe_ratios(values):
    out = []
    for v in values:
        try:
            out.append(ratio(12, v))
        except ZeroDivisionError as err:
            out.append(str(err))
    return out

# call:
def half(x):
    return x / 2


values = [half(v) for v in [2, 4]]
print(values)
broken = half("x")
print("never")

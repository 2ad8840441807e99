# call: main()
def logged(fn):
    def wrapper(*args):
        result = fn(*args)
        return result
    return wrapper


@logged
def add(a, b):
    return a + b


def main():
    return add(2, 3) + add(4, 5)

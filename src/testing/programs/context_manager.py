# call: main()
class Box:
    def __init__(self):
        self.log = []

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, kind, value, tb):
        self.log.append("exit")
        return True


def main():
    with Box() as box:
        box.log.append("body")
        raise KeyError("swallowed")
    return box.log

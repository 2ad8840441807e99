# call: use()
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    @property
    def norm1(self):
        return abs(self.x) + abs(self.y)

    def __repr__(self):
        return f"Point({self.x}, {self.y})"

    def __add__(self, other):
        return Point(self.x + other.x, self.y + other.y)


def use():
    p = Point(1, -2)
    q = p + Point(3, 4)
    return q.norm1

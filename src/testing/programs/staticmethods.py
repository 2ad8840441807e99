# call: Temp.convert([0, 100])
class Temp:
    @staticmethod
    def c_to_f(c):
        return c * 9 / 5 + 32

    @classmethod
    def convert(cls, values):
        return [cls.c_to_f(v) for v in values]

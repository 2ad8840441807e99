# call: zoo()
class Animal:
    def __init__(self, name):
        self.name = name

    def speak(self):
        return self.name + " makes " + self.sound()

    def sound(self):
        return "..."


class Dog(Animal):
    def __init__(self, name):
        super().__init__(name)
        self.tricks = []

    def sound(self):
        return "woof"


def zoo():
    d = Dog("rex")
    d.tricks.append("sit")
    return d.speak()

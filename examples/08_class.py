# title: A class with methods
# call: bank()
class Account:
    def __init__(self, owner, balance=0):
        self.owner = owner
        self.balance = balance

    def deposit(self, amount):
        self.balance += amount
        return self.balance

    def __repr__(self):
        return f"Account({self.owner!r}, {self.balance})"


def bank():
    acc = Account("ada")
    acc.deposit(30)
    acc.deposit(12)
    return acc

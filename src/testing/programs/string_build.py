# call: caesar("Hello, World", 3)
def shift(ch, k):
    if not ch.isalpha():
        return ch
    base = ord("A") if ch.isupper() else ord("a")
    return chr((ord(ch) - base + k) % 26 + base)


def caesar(text, k):
    return "".join(shift(c, k) for c in text)

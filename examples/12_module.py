# title: A whole module, top to bottom
# call:
def greet(name):
    return "hello " + name


names = ["ada", "grace"]
messages = []
for name in names:
    messages.append(greet(name))
print(messages)

# call: show(3)
def show(n):
    for i in range(n):
        print("row", i)
    print("end")
    return n

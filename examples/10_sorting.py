# title: Insertion sort
# call: insertion_sort([5, 2, 4, 1])
def insertion_sort(items):
    items = list(items)
    for i in range(1, len(items)):
        key = items[i]
        j = i - 1
        while j >= 0 and items[j] > key:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = key
    return items

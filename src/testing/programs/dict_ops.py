# call: histogram("mississippi")
def histogram(text):
    counts = {}
    for ch in text:
        counts[ch] = counts.get(ch, 0) + 1
    top = sorted(counts.items(), key=lambda kv: -kv[1])[:2]
    return dict(top)

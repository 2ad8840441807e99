# title: String processing
# call: word_lengths("the quick brown fox")
def word_lengths(text):
    result = {}
    for word in text.split():
        word = word.strip(".,").lower()
        result[word] = len(word)
    longest = max(result, key=result.get)
    return longest, result

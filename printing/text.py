"""Polish alphabetical order for printed lists (a ą b c ć d e ę f … ł … ń ó … ś … ź ż)."""

POLISH_ALPHABET = "aąbcćdeęfghijklłmnńoópqrsśtuvwxyzźż"
_POSITION = {letter: index for index, letter in enumerate(POLISH_ALPHABET)}


def polish_sort_key(text):
    """A sort key ordering text by the Polish alphabet, ignoring case.

    Spaces and punctuation sort before every letter ("Anna Nowak" before "Annabel"); other
    characters (digits, letters of other scripts) sort after the alphabet by code point. The
    original text breaks ties, so the order is total and stable.
    """
    return tuple(_position(char) for char in text.casefold()), text


def _position(char):
    if char in _POSITION:
        return _POSITION[char]
    return len(POLISH_ALPHABET) + ord(char) if char.isalnum() else -1

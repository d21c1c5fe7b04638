"""Password rules: Django's list of common passwords with Polish ones added.

Django's `CommonPasswordValidator` knows about 20,000 passwords common in English-speaking
countries; Polish favourites such as "haslo123" or "kochanie" are not among them. The Polish
list here is added to Django's (both compared in lower case, the Polish ones with and without
diacritics). `AUTH_PASSWORD_VALIDATORS` in config/settings.py names this validator (config/passwords.py is the
hasher's bound, a different matter).
"""

import unicodedata

from django.contrib.auth.password_validation import CommonPasswordValidator

# Words Polish users pick first, each also tried with the endings below.
POLISH_WORDS = """
haslo hasło haselko hasełko haslo1 maslo masło kochanie kochamcie kocham kochamie misiek misiaczek
skarbie skarb slonko słonko sloneczko słoneczko kotek koteczek kotku zabka żabka myszka bobas
polska polak polka warszawa krakow kraków gdansk gdańsk wroclaw wrocław poznan poznań lodz łódź
szczecin lublin katowice legia lech wisla wisła cracovia slask śląsk barcelona realmadryt
mama tata mamusia tatus tatuś babcia dziadek rodzina dziecko dzieci wnuczek wnuczka wnusia
agnieszka anna ania asia barbara basia beata danuta dorota ewa ewelina grazyna grażyna halina
irena jadwiga janina joanna kasia katarzyna krystyna magda magdalena malgosia małgosia
malgorzata małgorzata maria marysia marta monika renata stanislawa stanisława teresa wanda
zofia zosia adam andrzej bogdan darek dariusz grzegorz jacek jan janek jerzy jurek kazimierz
krzysiek krzysztof marek mariusz michal michał paweł pawel piotr piotrek robert roman
stanislaw stanisław tadeusz tomek tomasz wojtek zbigniew zbyszek
jesien jesień wiosna lato zima niebo morze gory góry kwiatek rozyczka różyczka
senior seniorka emeryt emerytka rummikub remik remikub turniej
zaq12wsx zaq1xsw2 qwerty qwertyuiop asdfgh zxcvbn qazwsx 1qaz2wsx
nowehaslo nowe-haslo tajne tajnehaslo sekret
""".split()

ENDINGS = ("", "1", "12", "123", "1234", "12345", "123456", "1!", "!", "2024", "2025", "2026", "2027")


def plain(text):
    """``text`` without diacritics (ł as l): "hasło" -> "haslo"."""
    text = text.replace("ł", "l").replace("Ł", "L")
    return "".join(char for char in unicodedata.normalize("NFKD", text) if not unicodedata.combining(char))


def polish_passwords():
    """The Polish common passwords, lower case, with and without diacritics, with their endings."""
    found = set()
    for word in POLISH_WORDS:
        for base in {word, plain(word)}:
            found.update(base + ending for ending in ENDINGS)
    return found


class PolishCommonPasswordValidator(CommonPasswordValidator):
    """Django's common passwords, and the Polish ones above; the message is Django's own
    ("This password is too common.", translated by Django)."""

    def __init__(self, password_list_path=CommonPasswordValidator.DEFAULT_PASSWORD_LIST_PATH):
        super().__init__(password_list_path)
        self.passwords = set(self.passwords) | polish_passwords()

"""Players get a surname and given names, split from the one `name` they had.

Polish registration lists write "Anna Nowak", so the last word is the surname ("Anna Maria
Nowak": Anna Maria / Nowak), with a particle before it ("Jan van Dijk": Jan / van Dijk); a
single word is a surname. `name` is kept as it was: the two parts put together give it back.
The constraint that a surname is not empty comes in the next migration (PostgreSQL does not
alter a table in the transaction that has just updated its rows). The rule is copied here (not imported) so that this migration stays as it is when the app's
own rule (`tournament.names.split_name`) changes.
"""

from django.db import migrations, models

PARTICLES = frozenset({
    "da", "de", "del", "della", "der", "di", "dos", "du", "la", "le", "ten", "ter", "van", "von", "zu",
})


def split(name):
    """(given names, surname) of a name written "Anna Nowak"."""
    words = name.split()
    if len(words) < 2:
        return "", " ".join(words)
    start = len(words) - 1
    while start > 1 and words[start - 1] in PARTICLES:
        start -= 1
    return " ".join(words[:start]), " ".join(words[start:])


def split_names(apps, schema_editor):
    Player = apps.get_model("tournament", "Player")
    players = list(Player.objects.only("pk", "name"))
    for player in players:
        player.given_names, player.surname = split(player.name)
    Player.objects.bulk_update(players, ["given_names", "surname"], batch_size=500)


def join_names(apps, schema_editor):
    """Back: `name` was kept, so there is nothing to undo."""


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="surname",
            field=models.CharField(default="", max_length=200, verbose_name="surname"),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="player",
            name="given_names",
            field=models.CharField(blank=True, max_length=200, verbose_name="given names"),
        ),
        migrations.RunPython(split_names, join_names),
    ]

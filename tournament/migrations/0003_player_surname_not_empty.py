"""A player's surname is never empty (0002 filled it in for every player)."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0002_player_surname_given_names"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(condition=models.Q(("surname", ""), _negated=True), name="player_surname_not_empty"),
        ),
    ]

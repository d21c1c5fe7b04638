"""Each tournament's own identity (`Tournament.uid`): the folder of its snapshots.

Added empty, filled with a new UUID for every existing tournament, then made unique.
"""

import uuid

from django.db import migrations, models


def give_each_tournament_its_identity(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    for pk in Tournament.objects.values_list("pk", flat=True):
        Tournament.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0005_submission_token"),
    ]

    operations = [
        migrations.AddField(model_name="tournament", name="uid", field=models.UUIDField(editable=False, null=True)),
        migrations.RunPython(give_each_tournament_its_identity, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament", name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
    ]

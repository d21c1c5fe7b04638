"""Every tournament belongs to a host organisation (`Tournament.host`).

An existing database moves into one organisation, the laptop's ("Organizator"), made here when
the database holds tournaments; a fresh one gets it with its first tournament.
"""

import django.db.models.deletion
from django.db import migrations, models


LAPTOP_HOST = {"slug": "organizator", "name": "Organizator"}


def into_one_organisation(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    HostOrganisation = apps.get_model("tournament", "HostOrganisation")
    if Tournament.objects.exists():
        host, _ = HostOrganisation.objects.get_or_create(slug=LAPTOP_HOST["slug"], defaults=LAPTOP_HOST)
        Tournament.objects.update(host=host)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0009_auditentry"),
    ]

    operations = [
        migrations.CreateModel(
            name="HostOrganisation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=200, verbose_name="name")),
                ("slug", models.SlugField(max_length=80, unique=True, verbose_name="short address")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "verbose_name": "host organisation",
                "verbose_name_plural": "host organisations",
                "ordering": ["name"],
            },
        ),
        migrations.AddField(
            model_name="tournament",
            name="host",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="tournaments",
                                    to="tournament.hostorganisation", verbose_name="host organisation"),
        ),
        migrations.RunPython(into_one_organisation, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="tournament",
            name="host",
            field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="tournaments",
                                    to="tournament.hostorganisation", verbose_name="host organisation"),
        ),
    ]

"""Roles held through a host organisation"s team (`Membership`) instead of groups valid on the
whole server: each member of the organiser, head referee and referee groups becomes a member of
the database"s one organisation (made here if needed) with the strongest role a group gave, and
the three groups go.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


RANK = ["referee", "head_referee", "organiser"]
LAPTOP_HOST = {"slug": "organizator", "name": "Organizator"}


def groups_to_memberships(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    HostOrganisation = apps.get_model("tournament", "HostOrganisation")
    Membership = apps.get_model("accounts", "Membership")
    strongest = {}
    for group in Group.objects.filter(name__in=RANK).prefetch_related("user_set"):
        for user in group.user_set.all():
            if RANK.index(group.name) >= RANK.index(strongest.get(user.pk, "referee")):
                strongest[user.pk] = group.name
    if strongest:
        host = HostOrganisation.objects.order_by("pk").first() or HostOrganisation.objects.create(**LAPTOP_HOST)
        Membership.objects.bulk_create(Membership(user_id=pk, host=host, role=role) for pk, role in strongest.items())
    Group.objects.filter(name__in=RANK).delete()


def memberships_to_groups(apps, schema_editor):
    Group = apps.get_model("auth", "Group")
    Membership = apps.get_model("accounts", "Membership")
    for membership in Membership.objects.all():
        Group.objects.get_or_create(name=membership.role)[0].user_set.add(membership.user_id)


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0008_tournament_venue"),
        ("tournament", "0010_host_organisation"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.CreateModel(
            name="Membership",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("role", models.CharField(choices=[("referee", "referee"), ("head_referee", "head referee"), ("organiser", "organiser")], max_length=20, verbose_name="role")),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("host", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to="tournament.hostorganisation", verbose_name="host organisation")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="memberships", to=settings.AUTH_USER_MODEL, verbose_name="user")),
            ],
            options={
                "verbose_name": "membership",
                "verbose_name_plural": "memberships",
                "constraints": [models.UniqueConstraint(fields=("user", "host"), name="membership_unique_user")],
            },
        ),
        migrations.RunPython(groups_to_memberships, memberships_to_groups),
    ]

"""The venue address belongs to each tournament: the one saved for the whole server is copied to
every tournament, then the server-wide row is dropped. An address that may no longer be saved
(a name the server does not serve, loopback in disguise…) is not copied: the organisers are
asked for it again."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

from accounts.venue import VenueAddressError, machine_names, normalise_venue_address


def copy_to_every_tournament(apps, schema_editor):
    saved = apps.get_model("accounts", "VenueSetting").objects.filter(pk=1).values_list("address", "updated_by")
    address, updated_by = saved.first() or ("", None)
    try:
        address = normalise_venue_address(
            address, served_names=[*settings.SERVED_HOSTS, *machine_names()], secure=settings.HTTPS,
        )
    except VenueAddressError:
        return
    venues = apps.get_model("accounts", "TournamentVenue")
    venues.objects.bulk_create([
        venues(tournament_id=pk, address=address, updated_by_id=updated_by)
        for pk in apps.get_model("tournament", "Tournament").objects.values_list("pk", flat=True)
    ])


def copy_back(apps, schema_editor):
    first = apps.get_model("accounts", "TournamentVenue").objects.order_by("-updated_at").first()
    if first is not None:
        apps.get_model("accounts", "VenueSetting").objects.create(pk=1, address=first.address)


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0007_setup_code_tries'),
        ('tournament', '0001_initial'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='TournamentVenue',
            fields=[
                ('tournament', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='venue', serialize=False, to='tournament.tournament', verbose_name='tournament')),
                ('address', models.CharField(max_length=200, verbose_name='venue address')),
                ('updated_at', models.DateTimeField(auto_now=True)),
                ('updated_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'venue address',
                'verbose_name_plural': 'venue addresses',
                'constraints': [models.CheckConstraint(condition=models.Q(('address', ''), _negated=True), name='venue_address_not_empty')],
            },
        ),
        migrations.RunPython(copy_to_every_tournament, copy_back),
        migrations.DeleteModel(name='VenueSetting'),
    ]

from django.db import migrations, models


def one_player_per_person(apps, schema_editor):
    """Before one tournament may hold a person once: a second player of one tournament given the
    same person by 0012 (names alike but for diacritics, in one club) becomes a person of its own."""
    Player = apps.get_model("tournament", "Player")
    Person = apps.get_model("tournament", "Person")
    seen = set()
    for player in Player.objects.filter(person__isnull=False).select_related("person", "organisation").order_by("pk"):
        key = (player.tournament_id, player.person_id)
        if key in seen:
            person = player.person
            player.person = Person.objects.create(
                host_id=person.host_id,
                surname=player.surname,
                given_names=player.given_names,
                club=player.organisation.name,
                name_key=person.name_key,
            )
            player.save(update_fields=["person"])
        seen.add(key)
    if schema_editor.connection.vendor == "postgresql":
        # PostgreSQL checks the new foreign keys now, so the constraint below may alter the table.
        schema_editor.execute("SET CONSTRAINTS ALL IMMEDIATE")


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0012_people_and_seasons"),
    ]

    operations = [
        migrations.RunPython(one_player_per_person, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.UniqueConstraint(fields=("tournament", "person"), name="player_one_per_person"),
        ),
    ]

"""How the final's results reach the public (`Tournament.final_release`).

A new tournament hides the final's results until the medal ceremony. An existing tournament
that has not started its final gets the same plan, which its dashboard shows before the final
starts; one whose final has started or finished keeps live results, as it had them.
"""

from django.db import migrations, models

STARTED = ("started", "completed")


def keep_live_where_the_final_has_started(apps, schema_editor):
    Tournament = apps.get_model("tournament", "Tournament")
    Tournament.objects.filter(rounds__kind="final", rounds__state__in=STARTED).update(final_release="live")


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0007_round_time"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="final_release",
            field=models.CharField(
                choices=[
                    ("ceremony", "hidden from the start of the final until the medal ceremony reveals them"),
                    ("live", "live: public as soon as the final's score sheet is verified"),
                ],
                default="ceremony",
                help_text=(
                    "Hidden: when the final starts, the public results are hidden (regulations §12.3); the ceremony's "
                    "last click, 1st place, makes them public. Live: phones and the projector show the final's order "
                    "as soon as its sheet is verified, before the ceremony."
                ),
                max_length=10,
                verbose_name="the final's results in public",
            ),
        ),
        migrations.RunPython(keep_live_where_the_final_has_started, migrations.RunPython.noop),
    ]

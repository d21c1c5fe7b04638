from django.db import migrations, models


class Migration(migrations.Migration):
    """A device link signs in one tablet once: `last_used_at` becomes `used_at`."""

    dependencies = [
        ("accounts", "0003_device_link"),
    ]

    operations = [
        migrations.RenameField(model_name="devicelink", old_name="last_used_at", new_name="used_at"),
        migrations.AlterField(
            model_name="devicelink", name="used_at",
            field=models.DateTimeField(blank=True, null=True, verbose_name="signed in"),
        ),
    ]

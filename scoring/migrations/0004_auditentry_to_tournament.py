"""The audit log's model moves to `tournament` (`tournament.AuditEntry`, see its migration 0008):
scoring forgets it; its table, `scoring_auditentry`, stays as it is with every row."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0003_card_withdrawal'),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name='AuditEntry')],
            database_operations=[],
        ),
    ]

"""An audit entry of an organisation's own (its team, its invitations) names its host and no tournament."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scoring', '0004_auditentry_to_tournament'),
        ('tournament', '0010_host_organisation'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='auditentry',
            name='host',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='tournament.hostorganisation', verbose_name='host organisation'),
        ),
        migrations.AlterField(
            model_name='auditentry',
            name='tournament',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='tournament.tournament'),
        ),
        migrations.AddConstraint(
            model_name='auditentry',
            constraint=models.CheckConstraint(condition=models.Q(('tournament__isnull', False), ('host__isnull', False), _connector='OR'), name='audit_entry_names_its_place'),
        ),
    ]

"""The audit log's model moves here from `scoring` (its migration 0004): the model is taken over
with the table it has (`scoring_auditentry`, every row kept), and its content type follows it, so
the admin's history and the permissions given on it stay attached."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def content_type_to(app_label, from_label):
    def move(apps, schema_editor):
        content_types = apps.get_model('contenttypes', 'ContentType').objects.using(schema_editor.connection.alias)
        if not content_types.filter(app_label=app_label, model='auditentry').exists():
            content_types.filter(app_label=from_label, model='auditentry').update(app_label=app_label)
    return move


class Migration(migrations.Migration):

    dependencies = [
        ('contenttypes', '0002_remove_content_type_name'),
        ('scoring', '0004_auditentry_to_tournament'),
        ('tournament', '0008_tournament_final_release'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name='AuditEntry',
                    fields=[
                        ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                        ('user_name', models.CharField(blank=True, help_text="The user's name when the change was made; kept when the account is gone or the log was restored.", max_length=150, verbose_name='user name')),
                        ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='when')),
                        ('action', models.CharField(max_length=40, verbose_name='action')),
                        ('before', models.JSONField(blank=True, null=True, verbose_name='before')),
                        ('after', models.JSONField(blank=True, null=True, verbose_name='after')),
                        ('reason', models.TextField(blank=True, verbose_name='reason')),
                        ('from_file', models.BooleanField(default=False, help_text='Restored from a backup or an imported file: who and when are what the file says, not checked.', verbose_name='from a restored file')),
                        ('sheet', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='scoring.scoresheet')),
                        ('tournament', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='audit_entries', to='tournament.tournament')),
                        ('user', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        'verbose_name': 'audit entry',
                        'verbose_name_plural': 'audit log',
                        'db_table': 'scoring_auditentry',
                        'ordering': ['-created_at', '-pk'],
                        'indexes': [models.Index(fields=['tournament', 'created_at'], name='scoring_aud_tournam_f041e5_idx')],
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.RunPython(content_type_to('tournament', 'scoring'), content_type_to('scoring', 'tournament')),
    ]

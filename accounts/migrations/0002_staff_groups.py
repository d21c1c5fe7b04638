"""The three staff groups (SPEC §6) with the model permissions each role needs."""

from django.db import migrations

ROLE_PERMISSIONS = {
    "organiser": None,  # every permission of the tournament, scoring and accounts apps
    "head_referee": [
        "scoring.view_scoresheet", "scoring.change_scoresheet", "scoring.view_game", "scoring.change_game",
        "scoring.add_game", "scoring.view_seatresult", "scoring.change_seatresult", "scoring.add_seatresult",
        "scoring.add_card", "scoring.view_card", "scoring.add_tiedecision", "scoring.view_tiedecision",
        "scoring.view_auditentry", "tournament.view_tournament", "tournament.change_tournament",
        "tournament.view_player", "tournament.view_round", "tournament.change_seat", "tournament.view_seat",
    ],
    "referee": [
        "scoring.view_scoresheet", "scoring.change_scoresheet", "scoring.view_game", "scoring.change_game",
        "scoring.add_game", "scoring.view_seatresult", "scoring.change_seatresult", "scoring.add_seatresult",
        "scoring.add_card", "scoring.view_card", "tournament.view_tournament", "tournament.view_player",
        "tournament.view_round", "tournament.view_seat",
    ],
}


def create_groups(apps, schema_editor):
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    for name, codenames in ROLE_PERMISSIONS.items():
        group, _ = Group.objects.get_or_create(name=name)
        if codenames is None:
            perms = Permission.objects.filter(content_type__app_label__in=["tournament", "scoring", "accounts"])
        else:
            # Those of models that exist at this point of the plan (0009 replaces the groups by
            # memberships: a later model's permission is never needed here).
            perms = [
                permission
                for label, codename in (c.split(".") for c in codenames)
                for permission in Permission.objects.filter(content_type__app_label=label, codename=codename)
            ]
        group.permissions.set(perms)


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("scoring", "0001_initial"),
        ("tournament", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]
    operations = [migrations.RunPython(create_groups, migrations.RunPython.noop)]

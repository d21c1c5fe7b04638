"""The admin's page for staff grants reads right in Polish (the organiser's Staff page is the usual way)."""

import pytest
from django.contrib.auth.models import User


@pytest.mark.django_db
def test_the_staff_grant_form_reads_right_in_polish(client):
    client.force_login(User.objects.create_superuser("admin", password="long-enough-password-1"))
    page = client.get("/admin/accounts/tournamentrole/add/", HTTP_ACCEPT_LANGUAGE="pl").content.decode()
    assert "Dodaj uprawnienie w turnieju" in page
    assert ">Użytkownik:<" in page and ">Turniej:<" in page
    assert "User:" not in page and "Tournament:" not in page

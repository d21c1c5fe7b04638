"""The season walk's first steps: the operator (the first superuser, made as docs/venue/first-start.md
tells a new operator) makes the organisation on the operator's page; its organiser sets a password
with the link shown once and invites the team by link; the head referee and the referee accept."""

from __future__ import annotations

from urllib.parse import urlsplit

from season_walk_kit import PASSWORD, Walk, WalkError, manage

HOST = "federacja"
OPERATOR = "operator"
ORGANISER = "anna.nowak"
HEAD = "jan.kowalski"
REFEREE = "ewa.zielinska"


def sign_in(walk: Walk, username: str, name: str, viewport=None):
    """A fresh browser signs in on the staff sign-in page; returns the page where it lands."""
    page = walk.new_page(viewport)
    walk.go(page, "/accounts/login/", f"{name}-sign-in")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("form.narrow button[type=submit]")
    if "/accounts/login/" in page.url:
        raise WalkError(f"{username} could not sign in")
    walk.look(page, f"{name}-landing")
    return page


def make_operator(walk: Walk, env) -> None:
    manage(
        env,
        "createsuperuser",
        "--noinput",
        "--username",
        OPERATOR,
        "--email",
        "operator@example.pl",
        DJANGO_SUPERUSER_PASSWORD=PASSWORD,
    )


def make_organisation(walk: Walk) -> str:
    """The operator follows the landing page's link to the organisations and adds the federation;
    returns the organiser's set-password link, shown once."""
    page = sign_in(walk, OPERATOR, "operator")
    with page.expect_navigation():
        page.click("a[href$='/accounts/operator/organisations/']")
    walk.look(page, "operator-organisations")
    page.fill("#id_name", "Federacja Rummikub Seniorów")
    page.fill("#id_slug", HOST)
    page.fill("#id_username", ORGANISER)
    with page.expect_navigation():
        page.click("section[aria-labelledby=add-title] button[type=submit]")
    walk.look(page, "operator-organisation-added")
    link = page.locator("#new-organiser code.long-link").inner_text().strip()
    page.context.close()
    return link


def set_password(walk: Walk, link: str) -> None:
    page = walk.new_page()
    walk.go(page, urlsplit(link).path, "organiser-set-password")
    page.fill("input[name=new_password1]", PASSWORD)
    page.fill("input[name=new_password2]", PASSWORD)
    with page.expect_navigation():
        page.click("form.narrow button[type=submit]")
    walk.look(page, "organiser-password-set")
    page.context.close()


def invite(walk: Walk, organiser, role: str) -> str:
    """The organiser makes an invitation link on the team page; returns it."""
    walk.go(organiser, f"/accounts/team/{HOST}/", f"team-invite-{role}")
    organiser.select_option("#id_role", role)
    with organiser.expect_navigation():
        organiser.click("section[aria-labelledby=invite-title] button[type=submit]")
    walk.look(organiser, f"team-invitation-{role}")
    return organiser.locator("#new-invitation code.long-link").inner_text().strip()


def accept(walk: Walk, link: str, username: str, role: str) -> None:
    """The invited person opens the link, makes an account with a password and joins."""
    page = walk.new_page()
    walk.go(page, urlsplit(link).path, f"invitation-{role}")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    page.fill("input[name=password_again]", PASSWORD)
    with page.expect_navigation():
        page.click("form.narrow button[type=submit]")
    walk.look(page, f"invitation-{role}-accepted")
    page.context.close()


def make_team(walk: Walk, env):
    """Operator, organisation, organiser, head referee and referee; returns the organiser's page."""
    with walk.step("the operator: the first superuser (manage.py createsuperuser)"):
        make_operator(walk, env)
    with walk.step("the operator adds the organisation on the operator's page"):
        link = make_organisation(walk)
    with walk.step("the organiser sets the password with the link"):
        set_password(walk, link)
    with walk.step("the organiser invites the head referee and the referee; both accept"):
        organiser = sign_in(walk, ORGANISER, "organiser")
        for role, username in (("head_referee", HEAD), ("referee", REFEREE)):
            accept(walk, invite(walk, organiser, role), username, role)
        walk.go(organiser, f"/accounts/team/{HOST}/", "team")
    return organiser

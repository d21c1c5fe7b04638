"""The staff help pages: one per role, in Polish and English, readable without signing in.

The public app shows them (`/help/<slug>/`), the printing app prints them (`/print/help/<slug>.pdf`);
both render the same content, the template `help/<name>.html`, so they never differ. The header of
every staff page links to the page of the signed-in user's role (`help_url`, through the context
processor).
"""

from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from accounts.models import Role
from accounts.roles import best_role


@dataclass(frozen=True)
class HelpPage:
    slug: str  # in the addresses
    role: Role
    title: str

    @property
    def name(self):
        """In the URL names (`public:help_<name>`, `printing:help_<name>`) and the content's template."""
        return self.slug.replace("-", "_")

    @property
    def template(self):
        return f"help/{self.name}.html"

    @property
    def url(self):
        return reverse(f"public:help_{self.name}")

    @property
    def pdf_url(self):
        return reverse(f"printing:help_{self.name}")


HELP_PAGES = (
    HelpPage("organiser", Role.ORGANISER, _("Help for the organiser")),
    HelpPage("head-referee", Role.HEAD_REFEREE, _("Help for the head referee")),
    HelpPage("referee", Role.REFEREE, _("Help for referees")),
)
BY_SLUG = {page.slug: page for page in HELP_PAGES}
BY_ROLE = {page.role: page for page in HELP_PAGES}


def help_url(request):
    """The help page for the user on this page: the role held for the page's tournament (set by
    `staff_required`), else the strongest role held anywhere; the index for anyone else."""
    role = getattr(request, "role", None)
    if role is None:
        user = getattr(request, "user", None)
        role = best_role(user) if user is not None else None
    return BY_ROLE[role].url if role in BY_ROLE else reverse("public:help")

"""The host organisation's people, seen from one of its tournaments: the list with search, a
person's page (their tournaments; name, club and year of birth corrected; "the same person as…"
and its undo), and "add from earlier tournaments" on the players' page."""

from django.contrib import messages
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import Role
from accounts.roles import staff_required
from organiser import person_selectors, selectors, services
from organiser.person_forms import AddPeopleForm, MergeForm, PersonForm, UndoMergeForm
from organiser.views.common import posted_data, redirect_after_post, staff_url
from tournament.refusals import Refused


def _search(request):
    return " ".join(request.GET.get("q", "").split())[:200]


@require_http_methods(["GET", "HEAD"])
@staff_required(Role.ORGANISER, member=True)
def people(request, tournament):
    """The organisation's people, surnames first, with a search by name (diacritics ignored)."""
    search = _search(request)
    context = {
        "tournament": tournament,
        "search": search,
        "people": selectors.people_of(tournament.host_id, search=search),
        "duplicates": selectors.likely_duplicates(tournament.host_id),
    }
    if request.htmx:
        return render(request, "organiser/people.html#people-found", context)
    return render(request, "organiser/people.html", context)


def _number(text):
    """A pk typed into an address or a form: None when it is not one."""
    return int(text) if text.isascii() and text.isdigit() and len(text) < 13 else None


def _find(data):
    return " ".join(data.get("find", "").split())[:200]


def _person_context(tournament, person, *, find="", chosen=None, **forms):
    """The person's page; "the same person as…" offers a bounded list (`person_selectors`), the
    one `chosen` among them; a merged record offers none."""
    choices = None
    if person.merged_into_id is None:
        choices = person_selectors.merge_choices(person, search=find, chosen=chosen)
    merge_form = forms.get("merge_form") or MergeForm(initial={"survivor": chosen, "find": find})
    return {
        "tournament": tournament,
        "person": person,
        "players": selectors.person_players(person),
        "merged": selectors.merged_records(person),
        "find": find,
        "choices": choices,
        "form": forms.get("form") or PersonForm(initial=_person_initial(person)),
        "merge_form": merge_form.offer(choices.people if choices else []),
        "undo_form": forms.get("undo_form") or UndoMergeForm(),
    }


def _person_initial(person):
    return {
        "surname": person.surname,
        "given_names": person.given_names,
        "club": person.club,
        "birth_year": person.birth_year,
    }


@staff_required(Role.ORGANISER, member=True)
def person_detail(request, tournament, person_id):
    """A person: their tournaments; their name, club and year of birth corrected for every later
    tournament (a tournament that has drawn a round keeps the name it printed)."""
    person = selectors.person_or_404(tournament.host_id, person_id)
    form = PersonForm(posted_data(request), initial=_person_initial(person))
    if request.method == "POST" and form.is_valid():
        try:
            renamed = services.correct_person(person, **form.cleaned_data, user=request.user)
        except Refused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(request, _("The changes have been saved."))
            if renamed:
                count = len(renamed)
                messages.success(
                    request,
                    ngettext(
                        "%(count)s tournament not started yet takes the new name.",
                        "%(count)s tournaments not started yet take the new name.",
                        count,
                    )
                    % {"count": count},
                )
            return redirect_after_post(request, staff_url("person", tournament, person.pk))
    chosen = _number(request.GET.get("same_as", ""))  # a likely duplicate's link: that record is chosen already
    context = _person_context(tournament, person, find=_find(request.GET), chosen=chosen, form=form)
    return render(request, "organiser/person.html", context)


@require_POST
@staff_required(Role.ORGANISER, member=True)
def person_merge(request, tournament, person_id):
    """ "The same person as…": this record's players become the chosen person's."""
    person = selectors.person_or_404(tournament.host_id, person_id)
    form = MergeForm(request.POST)
    if form.is_valid():
        try:
            survivor, _moved = services.merge_person_into(
                person, form.cleaned_data["survivor"], reason=form.cleaned_data["reason"], user=request.user
            )
        except Refused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(
                request, _("%(name)s is now one person with %(other)s.") % {"name": person.name, "other": survivor.name}
            )
            return redirect_after_post(request, staff_url("person", tournament, survivor.pk))
    find, chosen = _find(request.POST), _number(request.POST.get("survivor", ""))
    context = _person_context(tournament, person, find=find, chosen=chosen, merge_form=form)
    return render(request, "organiser/person.html", context)


@require_POST
@staff_required(Role.ORGANISER, member=True)
def person_undo_merge(request, tournament, person_id):
    """Undo "the same person as…": the players this record had go back to it."""
    person = selectors.person_or_404(tournament.host_id, person_id)
    form = UndoMergeForm(request.POST)
    if form.is_valid():
        try:
            services.undo_merge(person, reason=form.cleaned_data["reason"], user=request.user)
        except Refused as refusal:
            form.add_refusal(refusal)
        else:
            messages.success(request, _("%(name)s is a person of their own again.") % {"name": person.name})
            return redirect_after_post(request, staff_url("person", tournament, person.pk))
    return render(request, "organiser/person.html", _person_context(tournament, person, undo_form=form))


@staff_required(Role.ORGANISER, member=True)
def add_people(request, tournament):
    """Add from earlier tournaments: search the organisation's people, tick them, register them
    with their club as organisation (the quota holds)."""
    search = _search(request)
    found = selectors.people_to_add(tournament, search=search)
    problems = []
    if request.method == "POST":
        addable = selectors.people_to_add(tournament, limit=None)
        form = AddPeopleForm(request.POST, people=addable)
        if form.is_valid():
            chosen = [person for person in addable if person.pk in form.cleaned_data["people"]]
            try:
                created = services.add_people(tournament, people=chosen, user=request.user)
            except Refused as refusal:
                form.add_refusal(refusal)
                problems = refusal.problems
            else:
                messages.success(
                    request,
                    ngettext("%(count)s player added.", "%(count)s players added.", len(created))
                    % {"count": len(created)},
                )
                return redirect_after_post(request, staff_url("players", tournament))
    else:
        form = AddPeopleForm(people=found)
    context = {
        "tournament": tournament,
        "search": search,
        "people": found,
        "form": form,
        "problems": problems,
        "ticked": {int(pk) for pk in request.POST.getlist("people") if pk.isdigit() and len(pk) < 13},
    }
    if request.htmx and request.method == "GET":
        return render(request, "organiser/add_people.html#people-found", context)
    return render(request, "organiser/add_people.html", context)

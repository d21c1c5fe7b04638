"""The ties the head referee decides (SPEC §4), one form each, and the decisions that need a new
look because their players are no longer tied."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from accounts.models import Role
from scoring.forms import SetAsideForm, TieDecisionForm
from scoring.selectors.sheets import ties_to_decide
from scoring.selectors.ties import decisions_to_review
from scoring.services.ties import decide_tie, set_decision_aside
from scoring.views.access import referee_view
from tournament.refusals import Refused


@referee_view(Role.HEAD_REFEREE)
def ties(request, tournament):
    """The ties the head referee must decide now, one form each; a decision orders the tie.
    Above them, the decisions whose players are no longer tied, each with a form to set it aside."""
    posted = request.POST if request.method == "POST" else None
    aside = SetAsideForm.posted_decision(posted) if posted is not None else None
    reviews = []
    for review in decisions_to_review(tournament):
        review.form = SetAsideForm(review.decision.pk)
        if aside == review.decision.pk:
            review.form = SetAsideForm(review.decision.pk, posted)
            if review.form.is_valid():
                try:
                    set_decision_aside(tournament, aside, reason=review.form.cleaned_data["reason"], user=request.user)
                except Refused as refusal:
                    review.form.add_error(refusal.field if refusal.field == "reason" else None, refusal.message)
                else:
                    messages.success(request, _("The decision has been set aside; the standings no longer use it."))
                    return redirect(request.path)
        reviews.append(review)
    if aside is not None and not any(review.form.is_bound for review in reviews):
        messages.error(request, Refused("tie_decision_gone").message)
    forms = []
    for rows in ties_to_decide(tournament):
        form = TieDecisionForm(rows)
        if posted is not None and aside is None and form.is_for(posted):
            form = TieDecisionForm(rows, posted)
            if form.is_valid():
                try:
                    decide_tie(tournament, order=form.order(), reason=form.cleaned_data["reason"], user=request.user)
                except Refused as refusal:
                    form.add_error(refusal.field, refusal.message)
                else:
                    messages.success(
                        request, _("The tie at place %(place)s is decided.") % {"place": rows[0].rank_label}
                    )
                    return redirect(request.path)
        forms.append(form)
    if posted is not None and aside is None and not any(form.is_bound for form in forms):
        messages.error(request, _("These players are no longer tied on a place to decide. Reload the page."))
    return render(request, "scoring/ties.html", {"tournament": tournament, "forms": forms, "reviews": reviews})

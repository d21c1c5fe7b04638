"""The form renderer writes a bare `<input>` and a `<textarea>` exactly as Django's widget templates do."""

from django import forms
from django.forms.renderers import DjangoTemplates
from django.utils.safestring import mark_safe
from hypothesis import given
from hypothesis import strategies as st

from config.form_renderer import QuickInputs

TEMPLATES = DjangoTemplates()
QUICK = QuickInputs()
ATTRIBUTE_NAMES = st.sampled_from(["id", "class", "placeholder", "data-x", "aria-describedby", "hx-preserve", "a&b"])
CHOICES = [("a", "A & a"), ("b", mark_safe("<i>B</i>")), ("3", "three")]
ATTRIBUTE_VALUES = st.one_of(st.booleans(), st.text(max_size=12), st.integers(), st.just(mark_safe("<b>")))


def both(widget, name, value, attrs=None):
    """The widget drawn by Django's templates and by the quick renderer."""
    return widget.render(name, value, attrs, renderer=TEMPLATES), widget.render(name, value, attrs, renderer=QUICK)


@given(value=st.one_of(st.none(), st.text(max_size=20), st.integers()),
       attrs=st.dictionaries(ATTRIBUTE_NAMES, ATTRIBUTE_VALUES))
def test_text_number_hidden_and_textarea_fields_are_written_as_the_templates_write_them(value, attrs):
    widgets = (forms.TextInput, forms.NumberInput, forms.HiddenInput, forms.Textarea)
    for widget in (widget_class(attrs=attrs) for widget_class in widgets):
        expected, written = both(widget, 'na"me', value)
        assert written == expected


def test_a_checkbox_checked_or_not_and_a_password_are_written_as_the_templates_write_them():
    for widget, value in [(forms.CheckboxInput(attrs={"hx-preserve": True}), True), (forms.CheckboxInput(), False),
                          (forms.PasswordInput(render_value=True), "s<e>cret"), (forms.PasswordInput(), "hidden")]:
        expected, written = both(widget, "field", value, {"id": "id_field"})
        assert written == expected


class Choices(forms.Form):
    one = forms.ChoiceField(choices=CHOICES, widget=forms.RadioSelect(attrs={"class": "choice-input"}))
    many = forms.MultipleChoiceField(choices=CHOICES, widget=forms.CheckboxSelectMultiple)


def options_drawn_by(renderer):
    """Each option bare (as the score sheet draws them), labelled, and the whole widget."""
    form = Choices({"one": "b", "many": ["a", "3"]}, renderer=renderer)
    return [(option.tag(), str(option), str(form[name])) for name in ("one", "many") for option in form[name]]


def test_radio_and_checkbox_options_are_written_as_the_templates_write_them_with_or_without_a_label():
    drawn = options_drawn_by(QUICK)
    assert drawn == options_drawn_by(TEMPLATES)
    checked = '<input type="radio" name="one" value="b" class="choice-input" id="id_one_1" required checked>'
    assert drawn[1][0] == checked

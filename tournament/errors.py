"""The refusal every app raises when the rules do not allow a change (nothing is written then)."""


class ActionRefused(Exception):
    """A change the rules do not allow. `problems` lists each reason (with a line or field)."""

    def __init__(self, message, *, problems=(), field=None):
        super().__init__(message)
        self.message = message
        self.problems = list(problems)
        self.field = field

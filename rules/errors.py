"""The one error type for mistakes a user can make (bad file, illegal entry, …)."""


class KangleError(Exception):
    """A problem the user caused and can fix; the message says what to do.

    The command line prints the message without a traceback and exits with
    ``exit_code`` (2 for bad input unless a caller chooses otherwise).
    """

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.exit_code = exit_code

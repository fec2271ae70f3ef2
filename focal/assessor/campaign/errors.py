"""The error of a campaign request that the data cannot satisfy (the user can fix it)."""


class CampaignError(ValueError):
    """A refused request: the message says what to change (the CLI prints it, exit code 2)."""

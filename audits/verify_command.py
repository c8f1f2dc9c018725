"""Placeholder: this command is being built."""


def register(subparsers) -> None:
    """Add this module's subcommand(s) to the ``dptestbed`` parser."""

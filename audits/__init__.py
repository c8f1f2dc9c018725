"""Privacy auditor, theorem checker, report writer and the command-line interface."""

"""Recording a match as it is played: the session (one table's entries), the terminal app, the service's routes."""

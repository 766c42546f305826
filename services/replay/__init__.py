"""Replay: any table rebuilt at any point from its topic; import of records into a table."""

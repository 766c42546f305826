"""Tables: events appended to their topics, their records and history read, a retry known
by the log, what each reader may see, and the Director's close of tables."""

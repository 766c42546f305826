"""Live feeds: one Redis reader a process fanning each table's entries out to its sockets,
the public's feeds after their delay, and the Director's alerts."""

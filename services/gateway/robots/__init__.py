"""The Director's robots: which seats of which tables our robots take, and where they sit."""

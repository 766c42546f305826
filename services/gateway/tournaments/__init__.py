"""Tournaments as the gateway runs them: created in bulk, rounds sent to tables, their own
topic and record, their scores, the boards withheld from the public, and their close."""

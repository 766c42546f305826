"""The Table Manager host: robots speaking the Blue Chip protocol (v18) sit at the tables.

`host.py` serves TCP on `TABLESERVER_TM_PORT`; `credentials.py` reads a robot's seat token
from its name; `gateway_link.py` follows the seat's feed and sends its events through the
gateway's HTTP API. What to say and when is `shared.table_manager.session`'s (pure).
"""

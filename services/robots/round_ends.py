"""Whether a table's round is over, for the Table Manager host's `End of session`.

A board's feed does not carry the round (its boards still to start): the table's line does
(`shared.table.table_summary`: `round`, `boards_left`, `status` `done` once the round's last
board is over), written with each state in the table's Redis hash for a tournament's table and
for any table the director started a round at.
"""

from __future__ import annotations

import json
import logging
from typing import Protocol

from services.common.errors import StoreUnavailable
from services.common.names import state_key
from services.common.redis_connect import AnyRedis
from services.common.redis_faults import store_faults
from shared.vocabulary import TableStatus

log = logging.getLogger("tableserver.robots")


class RoundEnds(Protocol):
    async def over(self, table: str, board: int) -> bool:
        """Whether `board`, just over, was the last of the table's round."""
        ...


class NoRoundEnds:
    async def over(self, table: str, board: int) -> bool:
        return False


class RedisRoundEnds:
    def __init__(self, redis: AnyRedis) -> None:
        self.redis = redis

    async def over(self, table: str, board: int) -> bool:
        try:
            with store_faults():
                raw = await self.redis.hget(state_key(table), "line")
        except StoreUnavailable as error:
            log.warning("the round of %s not read (%s): no End of session", table, error)
            return False
        if not raw:
            return False
        line = json.loads(raw)
        return bool(line.get("round") is not None and line.get("board") == board
                    and line.get("status") == TableStatus.DONE and not line.get("boards_left"))

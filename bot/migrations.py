"""The numbered schema migrations; ``PRAGMA user_version`` records how many ran.

Append a new script to change the schema; never edit one that shipped.
"""

from __future__ import annotations

MIGRATIONS: tuple[str, ...] = (
    # 1: the initial schema
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        host_id TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seats TEXT NOT NULL DEFAULT '[]',
        state TEXT,
        version INTEGER NOT NULL,
        table_message_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX sessions_one_live_per_channel
        ON sessions (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX sessions_by_status ON sessions (status);

    CREATE TABLE actions (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        seq INTEGER NOT NULL,
        user_id TEXT NOT NULL,
        action TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    CREATE TRIGGER actions_no_update BEFORE UPDATE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END;
    CREATE TRIGGER actions_no_delete BEFORE DELETE ON actions
        BEGIN SELECT RAISE(ABORT, 'actions are append-only'); END;

    CREATE TABLE results (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        user_id TEXT NOT NULL,
        placement INTEGER NOT NULL,
        score INTEGER NOT NULL,
        is_bot_seat INTEGER NOT NULL,
        bots_in_game INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        finished_at TEXT NOT NULL,
        UNIQUE (session_id, user_id)
    );
    CREATE INDEX results_by_time ON results (guild_id, game, finished_at);
    CREATE INDEX results_by_user ON results (guild_id, game, user_id);
    CREATE TRIGGER results_no_update BEFORE UPDATE ON results
        BEGIN SELECT RAISE(ABORT, 'results are append-only'); END;
    CREATE TRIGGER results_no_delete BEFORE DELETE ON results
        BEGIN SELECT RAISE(ABORT, 'results are append-only'); END;

    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: leaderboard and history reads. The covering index answers a leaderboard from the
    # index alone, already in replay order; the channel index finds a channel's past games.
    """
    CREATE INDEX results_board ON results
        (guild_id, game, finished_at, session_id, user_id, placement, score, is_bot_seat, rated);
    CREATE INDEX sessions_by_channel ON sessions (channel_id, status, id);
    """,
    # 3: the public table log (the last few event lines, as a JSON list of strings).
    """
    ALTER TABLE sessions ADD COLUMN log TEXT NOT NULL DEFAULT '[]';
    """,
    # 4: the turn clock: the limit in minutes (0 = off) and the current deadlines (JSON).
    """
    ALTER TABLE sessions ADD COLUMN turn_minutes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN deadlines TEXT NOT NULL DEFAULT '[]';
    """,
)

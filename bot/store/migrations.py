"""The numbered schema migrations of both backends.

:data:`MIGRATIONS` are SQLite's (``PRAGMA user_version`` records how many ran);
:data:`POSTGRES_MIGRATIONS` are PostgreSQL's, number for number the same tables, columns,
indexes and append-only rules (the ``schema_migrations`` table records how many ran). The
columns keep SQLite's types on both (timestamps as ISO-8601 UTC text, flags as 0/1), so one
statement serves both backends and both sort alike; PostgreSQL's text columns that are ordered
use the ``C`` collation (byte order, as SQLite compares).

Append a new script to both to change the schema; never edit one that shipped.
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
    # 5: leaderboard standings, derived from the results (bot.records.period_standings): one row
    # per player and period key, moved on in the transaction that writes a game's results; a
    # period's mark is the last game it counts (a game sorting before it makes the period rebuilt).
    """
    CREATE TABLE standings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        period_key TEXT NOT NULL,
        user_id TEXT NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        score_total INTEGER NOT NULL,
        best INTEGER,
        rated_games INTEGER NOT NULL,
        mu REAL,
        sigma REAL,
        PRIMARY KEY (guild_id, game, period_key, user_id)
    ) WITHOUT ROWID;
    CREATE TABLE standing_marks (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        period_key TEXT NOT NULL,
        finished_at TEXT NOT NULL,
        session_id INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, period_key)
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_by TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (guild_id, key)
    ) WITHOUT ROWID;
    """,
    """
    CREATE TABLE user_settings (
        user_id INTEGER NOT NULL,
        key TEXT NOT NULL,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (user_id, key)
    ) WITHOUT ROWID;
    """,
    # 8: the game's live turn ping (a channel message id), deleted when the turn passes.
    """
    ALTER TABLE sessions ADD COLUMN ping_message_id INTEGER;
    """,
    # 9: the table log keeps public events (``{"kind", "actor", "data"}``), worded when read
    # in the reader's language; each English line stored before becomes an "old-line" entry
    # that keeps its text (bot.records.session.OLD_LINE), in its order.
    """
    UPDATE sessions SET log = (
        SELECT json_group_array(json_object('kind', 'old-line', 'data', json_object('text', value)))
        FROM (SELECT value FROM json_each(sessions.log) ORDER BY key)
    ) WHERE log <> '[]' AND json_type(log, '$[0]') = 'text';
    """,
    # 10: seasons (bot.automation.season_watcher): one row per server and ended season, claimed
    # in the transaction that decides its champions (season_champions); ``posted_at`` is set once
    # the end-of-season post went out (or could never go out). An unposted claim older than the
    # watcher's claim timeout is taken over, so a crash between claim and post loses nothing.
    """
    CREATE TABLE season_posts (
        guild_id INTEGER NOT NULL,
        season TEXT NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at TEXT NOT NULL,
        posted_at TEXT,
        message_id INTEGER,
        PRIMARY KEY (guild_id, season)
    ) WITHOUT ROWID;
    CREATE TABLE season_champions (
        guild_id INTEGER NOT NULL,
        season TEXT NOT NULL,
        game TEXT NOT NULL,
        user_id TEXT NOT NULL,
        PRIMARY KEY (guild_id, season, game)
    ) WITHOUT ROWID;
    CREATE INDEX season_champions_by_user ON season_champions (guild_id, user_id);
    """,
    # 11: private tables and the daily deal. ``kind`` (bot.records.session.SessionKind): a
    # private table (daily, learn) has no channel message, so only ordinary tables keep to one
    # live session per channel. ``daily_plays``: one row per player, game and UTC day (the
    # key makes it once a day), claimed before the deal; ``score`` once the game ended,
    # ``shared_at`` once its summary was posted; ``guild_id``: the server whose board it is on.
    """
    ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'table'
        CHECK (kind IN ('table', 'daily', 'learn'));
    DROP INDEX sessions_one_live_per_channel;
    CREATE UNIQUE INDEX sessions_one_live_per_channel
        ON sessions (channel_id) WHERE status IN ('lobby', 'active') AND kind = 'table';
    CREATE TABLE daily_plays (
        game TEXT NOT NULL,
        day TEXT NOT NULL,
        user_id TEXT NOT NULL,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        session_id INTEGER REFERENCES sessions (id),
        claimed_at TEXT NOT NULL,
        score INTEGER,
        finished_at TEXT,
        shared_at TEXT,
        PRIMARY KEY (game, day, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX daily_plays_board ON daily_plays (guild_id, game, day, score);
    CREATE INDEX daily_plays_by_user ON daily_plays (user_id, game, day);
    CREATE INDEX daily_plays_by_session ON daily_plays (session_id);
    """,
    # 12: the expert's reviews (bot.reviews): one row per finished game and human player,
    # "pending" from when it is asked for (at the game's end) until its body is stored once
    # ("done"; "failed" when the game does not replay). Pending rows are redone at the next
    # start.
    """
    CREATE TABLE reviews (
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        user_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
        body TEXT,
        queued_at TEXT NOT NULL,
        done_at TEXT,
        PRIMARY KEY (session_id, user_id)
    ) WITHOUT ROWID;
    CREATE INDEX reviews_pending ON reviews (status, queued_at);
    """,
    # 13 (MIGRATIONS[12]): the public messages a finished game leaves in its channel, its final
    # post ("post") and its last table ("table"), by message id: a page control (a
    # leaderboard's) forged onto one is refused whatever components the click claims it shows.
    """
    CREATE TABLE final_posts (
        message_id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions (id),
        kind TEXT NOT NULL CHECK (kind IN ('post', 'table')),
        posted_at TEXT NOT NULL
    );
    CREATE INDEX final_posts_by_session ON final_posts (session_id);
    """,
    # 14 (MIGRATIONS[13]): server events (bot.events, issue 43): an event (its settings as
    # JSON), its registered players, and each round's tables (players as a JSON list in seat
    # order, the session played there, each player's placement as JSON once it ended).
    """
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        format TEXT NOT NULL,
        name TEXT NOT NULL,
        created_by TEXT NOT NULL,
        starts_at TEXT NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL,
        message_id INTEGER,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE INDEX events_by_guild ON events (guild_id, id);
    CREATE INDEX events_live ON events (status);
    CREATE TABLE event_players (
        event_id INTEGER NOT NULL REFERENCES events (id),
        user_id TEXT NOT NULL,
        display_name TEXT NOT NULL,
        joined_at TEXT NOT NULL,
        withdrawn INTEGER NOT NULL,
        PRIMARY KEY (event_id, user_id)
    );
    CREATE INDEX event_players_by_user ON event_players (user_id);
    CREATE TABLE event_tables (
        event_id INTEGER NOT NULL REFERENCES events (id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        players TEXT NOT NULL,
        session_id INTEGER REFERENCES sessions (id),
        outcome TEXT,
        finished_at TEXT,
        PRIMARY KEY (event_id, round, number)
    );
    CREATE INDEX event_tables_by_session ON event_tables (session_id);
    """,
)

POSTGRES_MIGRATIONS: tuple[str, ...] = (
    # 1: the initial schema
    """
    CREATE TABLE sessions (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
        host_id TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        seats TEXT NOT NULL DEFAULT '[]',
        state TEXT,
        version BIGINT NOT NULL,
        table_message_id BIGINT,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL
    );
    CREATE UNIQUE INDEX sessions_one_live_per_channel
        ON sessions (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX sessions_by_status ON sessions (status);

    CREATE TABLE actions (
        session_id BIGINT NOT NULL REFERENCES sessions (id),
        seq BIGINT NOT NULL,
        user_id TEXT NOT NULL,
        action TEXT NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (session_id, seq)
    );
    CREATE FUNCTION refuse_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '% are append-only', TG_TABLE_NAME
            USING ERRCODE = 'integrity_constraint_violation';
    END $$;
    CREATE TRIGGER actions_append_only BEFORE UPDATE OR DELETE ON actions
        FOR EACH ROW EXECUTE FUNCTION refuse_change();

    CREATE TABLE results (
        session_id BIGINT NOT NULL REFERENCES sessions (id),
        guild_id BIGINT NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        user_id TEXT COLLATE "C" NOT NULL,
        placement INTEGER NOT NULL,
        score INTEGER NOT NULL,
        is_bot_seat INTEGER NOT NULL,
        bots_in_game INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        finished_at TEXT COLLATE "C" NOT NULL,
        UNIQUE (session_id, user_id)
    );
    CREATE INDEX results_by_time ON results (guild_id, game, finished_at);
    CREATE INDEX results_by_user ON results (guild_id, game, user_id);
    CREATE TRIGGER results_append_only BEFORE UPDATE OR DELETE ON results
        FOR EACH ROW EXECUTE FUNCTION refuse_change();

    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # 2: leaderboard and history reads
    """
    CREATE INDEX results_board ON results
        (guild_id, game, finished_at, session_id, user_id, placement, score, is_bot_seat, rated);
    CREATE INDEX sessions_by_channel ON sessions (channel_id, status, id);
    """,
    # 3: the public table log
    """
    ALTER TABLE sessions ADD COLUMN log TEXT NOT NULL DEFAULT '[]';
    """,
    # 4: the turn clock
    """
    ALTER TABLE sessions ADD COLUMN turn_minutes INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE sessions ADD COLUMN deadlines TEXT NOT NULL DEFAULT '[]';
    """,
    # 5: leaderboard standings (double precision: SQLite's REAL is an 8-byte float too)
    """
    CREATE TABLE standings (
        guild_id BIGINT NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        period_key TEXT COLLATE "C" NOT NULL,
        user_id TEXT COLLATE "C" NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        score_total BIGINT NOT NULL,
        best INTEGER,
        rated_games INTEGER NOT NULL,
        mu DOUBLE PRECISION,
        sigma DOUBLE PRECISION,
        PRIMARY KEY (guild_id, game, period_key, user_id)
    );
    CREATE TABLE standing_marks (
        guild_id BIGINT NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        period_key TEXT COLLATE "C" NOT NULL,
        finished_at TEXT COLLATE "C" NOT NULL,
        session_id BIGINT NOT NULL,
        PRIMARY KEY (guild_id, game, period_key)
    );
    """,
    """
    CREATE TABLE guild_settings (
        guild_id BIGINT NOT NULL,
        key TEXT COLLATE "C" NOT NULL,
        value TEXT COLLATE "C" NOT NULL,
        updated_by TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (guild_id, key)
    );
    """,
    """
    CREATE TABLE user_settings (
        user_id BIGINT NOT NULL,
        key TEXT COLLATE "C" NOT NULL,
        value TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    """,
    # 8: the game's live turn ping
    """
    ALTER TABLE sessions ADD COLUMN ping_message_id BIGINT;
    """,
    # 9: the table log keeps public events; the English lines become "old-line" entries
    """
    UPDATE sessions SET log = (
        SELECT json_agg(json_build_object('kind', 'old-line', 'data',
                                          json_build_object('text', line)) ORDER BY at)::text
        FROM json_array_elements_text(sessions.log::json) WITH ORDINALITY AS lines (line, at)
    ) WHERE log <> '[]' AND json_typeof(log::json -> 0) = 'string';
    """,
    # 10: seasons: end-of-season claims and their champions
    """
    CREATE TABLE season_posts (
        guild_id BIGINT NOT NULL,
        season TEXT COLLATE "C" NOT NULL,
        claimed_by TEXT NOT NULL,
        claimed_at TEXT COLLATE "C" NOT NULL,
        posted_at TEXT COLLATE "C",
        message_id BIGINT,
        PRIMARY KEY (guild_id, season)
    );
    CREATE TABLE season_champions (
        guild_id BIGINT NOT NULL,
        season TEXT COLLATE "C" NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        user_id TEXT COLLATE "C" NOT NULL,
        PRIMARY KEY (guild_id, season, game)
    );
    CREATE INDEX season_champions_by_user ON season_champions (guild_id, user_id);
    """,
    # 11: private tables (the session's kind) and the daily deal's plays
    """
    ALTER TABLE sessions ADD COLUMN kind TEXT COLLATE "C" NOT NULL DEFAULT 'table'
        CHECK (kind IN ('table', 'daily', 'learn'));
    DROP INDEX sessions_one_live_per_channel;
    CREATE UNIQUE INDEX sessions_one_live_per_channel
        ON sessions (channel_id) WHERE status IN ('lobby', 'active') AND kind = 'table';
    CREATE TABLE daily_plays (
        game TEXT COLLATE "C" NOT NULL,
        day TEXT COLLATE "C" NOT NULL,
        user_id TEXT COLLATE "C" NOT NULL,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        session_id BIGINT REFERENCES sessions (id),
        claimed_at TEXT COLLATE "C" NOT NULL,
        score INTEGER,
        finished_at TEXT COLLATE "C",
        shared_at TEXT COLLATE "C",
        PRIMARY KEY (game, day, user_id)
    );
    CREATE INDEX daily_plays_board ON daily_plays (guild_id, game, day, score);
    CREATE INDEX daily_plays_by_user ON daily_plays (user_id, game, day);
    CREATE INDEX daily_plays_by_session ON daily_plays (session_id);
    """,
    # 12: the expert's reviews
    """
    CREATE TABLE reviews (
        session_id BIGINT NOT NULL REFERENCES sessions (id),
        user_id TEXT COLLATE "C" NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
        body TEXT,
        queued_at TEXT COLLATE "C" NOT NULL,
        done_at TEXT COLLATE "C",
        PRIMARY KEY (session_id, user_id)
    );
    CREATE INDEX reviews_pending ON reviews (status, queued_at);
    """,
    # 13 (POSTGRES_MIGRATIONS[12]): a finished game's final post and last table, by message id
    """
    CREATE TABLE final_posts (
        message_id BIGINT PRIMARY KEY,
        session_id BIGINT NOT NULL REFERENCES sessions (id),
        kind TEXT COLLATE "C" NOT NULL CHECK (kind IN ('post', 'table')),
        posted_at TEXT COLLATE "C" NOT NULL
    );
    CREATE INDEX final_posts_by_session ON final_posts (session_id);
    """,
    # 14 (POSTGRES_MIGRATIONS[13]): server events, their players and tables
    """
    CREATE TABLE events (
        id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
        guild_id BIGINT NOT NULL,
        channel_id BIGINT NOT NULL,
        game TEXT COLLATE "C" NOT NULL,
        format TEXT COLLATE "C" NOT NULL,
        name TEXT NOT NULL,
        created_by TEXT COLLATE "C" NOT NULL,
        starts_at TEXT COLLATE "C" NOT NULL,
        settings TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
        round INTEGER NOT NULL,
        message_id BIGINT,
        created_at TEXT COLLATE "C" NOT NULL,
        updated_at TEXT COLLATE "C" NOT NULL
    );
    CREATE INDEX events_by_guild ON events (guild_id, id);
    CREATE INDEX events_live ON events (status);
    CREATE TABLE event_players (
        event_id BIGINT NOT NULL REFERENCES events (id),
        user_id TEXT COLLATE "C" NOT NULL,
        display_name TEXT NOT NULL,
        joined_at TEXT COLLATE "C" NOT NULL,
        withdrawn INTEGER NOT NULL,
        PRIMARY KEY (event_id, user_id)
    );
    CREATE INDEX event_players_by_user ON event_players (user_id);
    CREATE TABLE event_tables (
        event_id BIGINT NOT NULL REFERENCES events (id),
        round INTEGER NOT NULL,
        number INTEGER NOT NULL,
        players TEXT NOT NULL,
        session_id BIGINT REFERENCES sessions (id),
        outcome TEXT,
        finished_at TEXT COLLATE "C",
        PRIMARY KEY (event_id, round, number)
    );
    CREATE INDEX event_tables_by_session ON event_tables (session_id);
    """,
)

assert len(MIGRATIONS) == len(POSTGRES_MIGRATIONS)

"""Play Ra in the browser: the game server (``ra serve``) and its pages (``static/``).

Needs the ``web`` extra.  The server is authoritative: a decision is validated by
the engine and committed before anyone is told (see ``docs/web-api.md``).
"""

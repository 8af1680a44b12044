"""The server's routes, one router per part of the site, each built from the
:class:`ra.web.services.Services`: :mod:`.site` (pages, static files, health, metrics and the
error answers), :mod:`.lobby` (tables, chat, records, replays, analyses, ratings),
:mod:`.accounts` (sign-up, sessions, an account's seats) and :mod:`.play` (the WebSockets).
"""

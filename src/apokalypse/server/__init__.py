"""The online game server: persistence (:mod:`.store`), the games in play (:mod:`.games`) and
the HTTP and WebSocket app (:mod:`.app`, ``apokalypse serve``); the lobby and the fan-out across
processes build on them."""

"""The online game server: persistence now (:mod:`.store`); the HTTP and WebSocket app, the
lobby and the fan-out across processes build on it."""

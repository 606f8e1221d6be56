"""What single play and races share: errors, writing and announcing, client ids, the
versioned cache, who is asking, the socket base and the HTTP helpers.

Nothing here knows a game's rules or a model: the rooms (games.solo, games.races) do.
"""

"""What single play and races share, and nothing else:

    errors        ServiceError and its kinds; from_engine for the engine's refusals
    transactions  writing(), after_commit, send_after_commit, send_to_group
    client_ids    client ids and versions as clients send them; storable text
    cache         VersionedCache, the one kind of per-process cache; clear_all
    actors        who is asking: a user or an anonymous token
    sockets       the socket base: decoding, ping, errors, catching up
    http          JSON bodies and error answers for the views
    options       validated_options; described(rules)
    health        the /healthz check

Nothing here knows a room (games.solo, games.races); a test checks it.
"""

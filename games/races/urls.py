"""URLs of the races: the JSON API (/api/races...), the pages (/races/...) and the
race socket (/ws/races/<id>/, mounted by games.routing)."""

from __future__ import annotations

from django.urls import path

from games.races import api as race_api
from games.races import pages as race_pages
from games.races import results as race_results
from games.races import seek_api
from games.races.consumer import RaceConsumer

urlpatterns = [
    path("api/races", race_api.race_list, name="api-races"),
    path("api/races/live", seek_api.live, name="api-races-live"),
    path("api/races/<int:race_id>", race_api.race_detail, name="api-race"),
    path("api/races/<int:race_id>/join", race_api.join, name="api-race-join"),
    path("api/races/<int:race_id>/rematch", race_api.rematch, name="api-race-rematch"),
    path("api/races/<int:race_id>/replay", race_api.replay, name="api-race-replay"),
    path("api/seeks", seek_api.seek_list, name="api-seeks"),
    path("api/seeks/<int:seek_id>", seek_api.seek_detail, name="api-seek"),
    path("api/ratings/me", seek_api.my_rating, name="api-my-rating"),
    path("races/", race_pages.lobby, name="race-lobby"),
    path("races/results/", race_results.results, name="race-results"),
    path("races/<int:race_id>/", race_pages.race, name="race"),
    path("races/<int:race_id>/join/<str:token>/", race_pages.invited, name="race-join"),
    path("races/<int:race_id>/watch/<str:token>/", race_pages.watch, name="race-watch"),
    path("races/<int:race_id>/replay/", race_pages.replay, name="race-replay"),
]

websocket_urlpatterns = [
    path("ws/races/<int:race_id>/", RaceConsumer.as_asgi()),
]

"""Serving the app: the WSGI server, its worker processes, start-up checks, and the demo site."""

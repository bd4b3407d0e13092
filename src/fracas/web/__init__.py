"""The game master's table on the web: a FastAPI app over the table service.

Pages are rendered on the server (Jinja2) from the presenter's screens, never from the
encounter; htmx (shipped in ``static/``, with its licence) polls a table's version and
refetches the live part of a page only when it moved, so players connected to another
server process on the same store see every change. See :func:`fracas.web.app.create_app`.
"""

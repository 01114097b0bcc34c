"""The Kubernetes API server, read and written within bounds: ``client`` (where the server is, the service account,
one request with a deadline, a capped answer and no redirect, paged lists) and ``reflector`` (a bounded local copy
of one collection, kept by list + watch). The exporter's watches, ``-m``, and the remediator all use it.

Nothing is imported here, so ``-m`` loads the client without the reflector's threads.
"""

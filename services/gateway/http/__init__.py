"""The gateway's HTTP edge: the routes, the plain ASGI call path in front of FastAPI, the
request and response models, the refusals' shape, and the bounds and probes of a process."""

"""The gateway's routes, a module per resource."""

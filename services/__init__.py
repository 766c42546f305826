"""tableserver's services: thin adapters around the pure core in `shared`."""

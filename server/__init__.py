"""The gRPC service: adapters from the wire contract in ``protos/`` to the ``solver`` library."""
